# Records the version and git revision so that every output file can say what
# produced it.
find_package(Git QUIET)
set(NUMACOLL_GIT_REVISION "unknown")
if(GIT_FOUND AND EXISTS "${CMAKE_SOURCE_DIR}/.git")
  execute_process(COMMAND ${GIT_EXECUTABLE} describe --always --dirty
                  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
                  OUTPUT_VARIABLE NUMACOLL_GIT_REVISION
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(NOT NUMACOLL_GIT_REVISION)
    set(NUMACOLL_GIT_REVISION "unknown")
  endif()
endif()
configure_file(${CMAKE_SOURCE_DIR}/cmake/version.hpp.in
               ${CMAKE_BINARY_DIR}/generated/numacoll/version.hpp @ONLY)
