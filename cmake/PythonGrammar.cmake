# The Python grammar for Tree-sitter: the npm package tree-sitter-python@0.23.6, fetched into the
# build tree at configure time (never committed). Its src/parser.c is ABI 14, which Debian's
# tree-sitter 0.20.7 runtime loads; 0.25 is ABI 15 and does not.
set(TLENS_PYGRAMMAR_VERSION 0.23.6)
set(TLENS_PYGRAMMAR_DIR ${CMAKE_BINARY_DIR}/_deps/tree-sitter-python-${TLENS_PYGRAMMAR_VERSION})

if(NOT EXISTS ${TLENS_PYGRAMMAR_DIR}/src/parser.c)
  find_program(NPM_PROGRAM npm REQUIRED)
  set(_tmp ${CMAKE_BINARY_DIR}/_deps/npm-pack)
  file(MAKE_DIRECTORY ${_tmp})
  message(STATUS "Fetching tree-sitter-python@${TLENS_PYGRAMMAR_VERSION} with npm pack")
  execute_process(
    COMMAND ${NPM_PROGRAM} pack --silent tree-sitter-python@${TLENS_PYGRAMMAR_VERSION}
    WORKING_DIRECTORY ${_tmp}
    OUTPUT_VARIABLE _tarball OUTPUT_STRIP_TRAILING_WHITESPACE
    RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "npm pack tree-sitter-python@${TLENS_PYGRAMMAR_VERSION} failed (${_rc})")
  endif()
  file(ARCHIVE_EXTRACT INPUT ${_tmp}/${_tarball} DESTINATION ${_tmp}/x)
  file(REMOVE_RECURSE ${TLENS_PYGRAMMAR_DIR})
  file(RENAME ${_tmp}/x/package ${TLENS_PYGRAMMAR_DIR})
endif()

find_path(TREE_SITTER_INCLUDE_DIR tree_sitter/api.h REQUIRED)
find_library(TREE_SITTER_LIBRARY tree-sitter REQUIRED)

add_library(tlens_pygrammar STATIC
  ${TLENS_PYGRAMMAR_DIR}/src/parser.c
  ${TLENS_PYGRAMMAR_DIR}/src/scanner.c)
target_include_directories(tlens_pygrammar PRIVATE ${TLENS_PYGRAMMAR_DIR}/src)
target_include_directories(tlens_pygrammar PUBLIC ${TREE_SITTER_INCLUDE_DIR})
target_link_libraries(tlens_pygrammar PUBLIC ${TREE_SITTER_LIBRARY})
set_target_properties(tlens_pygrammar PROPERTIES C_STANDARD 11 POSITION_INDEPENDENT_CODE ON)
target_compile_options(tlens_pygrammar PRIVATE -w)
