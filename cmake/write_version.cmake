# Writes version.hpp from version.hpp.in with the current git revision.
# Usage: cmake -DSOURCE_DIR=... -DOUTPUT=... -DVERSION=... -DBUILD_TYPE=... -DSIMGRID_VERSION=... -P write_version.cmake
set(NUMACOLL_GIT_REVISION "unknown")
find_package(Git QUIET)
if(GIT_FOUND AND EXISTS "${SOURCE_DIR}/.git")
  execute_process(COMMAND ${GIT_EXECUTABLE} describe --always --dirty
                  WORKING_DIRECTORY ${SOURCE_DIR}
                  OUTPUT_VARIABLE revision
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(revision)
    set(NUMACOLL_GIT_REVISION "${revision}")
  endif()
endif()
set(PROJECT_VERSION "${VERSION}")
set(NUMACOLL_BUILD_TYPE "${BUILD_TYPE}")
set(NUMACOLL_SIMGRID_VERSION "${SIMGRID_VERSION}")
configure_file(${SOURCE_DIR}/cmake/version.hpp.in ${OUTPUT}.tmp @ONLY)
file(COPY_FILE ${OUTPUT}.tmp ${OUTPUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUTPUT}.tmp)
