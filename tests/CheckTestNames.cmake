# Fails when a Catch2 test case name under tests/ contains ';'. catch_discover_tests keeps the
# names in a CMake list, so such a name is cut at the ';': ctest then runs the test binary with a
# name that matches no test case, Catch runs nothing and ctest counts a pass. The test never runs.
# Run by ctest as "tests: no semicolon in test case names":
#   cmake -DTESTS_DIR=<repo>/tests -P tests/CheckTestNames.cmake
if(NOT TESTS_DIR)
  message(FATAL_ERROR "CheckTestNames.cmake: pass -DTESTS_DIR=<the tests folder>")
endif()
file(GLOB_RECURSE sources "${TESTS_DIR}/*.cpp" "${TESTS_DIR}/*.h" "${TESTS_DIR}/*.hpp")
set(count 0)
set(report "")
foreach(f IN LISTS sources)
  if(f MATCHES "/node_modules/")
    continue()
  endif()
  file(READ "${f}" text)
  # ';' separates CMake list items: stand it in before matching.
  string(REPLACE ";" "<semicolon>" text "${text}")
  string(REGEX MATCHALL
         "(TEST_CASE|TEST_CASE_METHOD|SCENARIO|TEMPLATE_TEST_CASE)[ \t\r\n]*\\([A-Za-z0-9_:, \t\r\n]*\"[^\"\n]*<semicolon>[^\"\n]*\""
         hits "${text}")
  foreach(h IN LISTS hits)
    math(EXPR count "${count} + 1")
    string(REPLACE "<semicolon>" ";" h "${h}")
    file(RELATIVE_PATH rel "${TESTS_DIR}" "${f}")
    string(APPEND report "  tests/${rel}: ${h}\n")
  endforeach()
endforeach()
if(count GREATER 0)
  message(FATAL_ERROR
          "${count} test case name(s) contain ';', which ctest would cut and then silently skip "
          "(catch_discover_tests keeps names in a CMake list). Rename them (use ',' or ':'):\n${report}")
endif()
list(LENGTH sources n)
message(STATUS "no ';' in the test case names of ${n} test sources")
