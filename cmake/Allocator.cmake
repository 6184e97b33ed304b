# The allocator of the tlens binary (and of the benchmarks, which measure what it does): jemalloc
# (Debian libjemalloc-dev) when found. The language server's threads build and free big object
# graphs all the time (an analysis, the pauser's run, the teardown of the previous version on
# another thread); with glibc's malloc they ran 25-35% slower (malloc/free were a sixth of the
# profile) and held ~40 MB more (each thread's arena kept its own peak). The settings it runs
# with are in tools/tlens/MallocConf.cpp. Not with the sanitizers (they bring their own
# allocator); when jemalloc is missing the build goes on with glibc's malloc and says so.
option(TLENS_JEMALLOC "Link tlens and tlens_bench with jemalloc" ON)
set(TLENS_HAVE_JEMALLOC OFF)
if(TLENS_JEMALLOC AND NOT TLENS_SANITIZE AND NOT TLENS_FUZZ AND NOT CMAKE_CXX_FLAGS MATCHES "sanitize")
  find_package(PkgConfig QUIET)
  if(PkgConfig_FOUND)
    pkg_check_modules(JEMALLOC QUIET IMPORTED_TARGET jemalloc)
  endif()
  if(JEMALLOC_FOUND)
    set(TLENS_HAVE_JEMALLOC ON)
    message(STATUS "tensorlens: tlens uses jemalloc ${JEMALLOC_VERSION}")
  else()
    message(WARNING "tensorlens: jemalloc not found (Debian: libjemalloc-dev); tlens uses glibc's malloc, "
                    "and the language server is slower and bigger")
  endif()
endif()

# Links `target` (an executable) with the allocator and its settings.
function(tlens_use_allocator target)
  if(TLENS_HAVE_JEMALLOC)
    target_sources(${target} PRIVATE ${PROJECT_SOURCE_DIR}/tools/tlens/MallocConf.cpp)
    target_link_libraries(${target} PRIVATE PkgConfig::JEMALLOC)
  endif()
endfunction()
