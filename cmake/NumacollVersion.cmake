# Records the version, git revision, build type and SimGrid version so that every output file
# can say what produced it. The revision is read at every build (not only at configure
# time), and the header is rewritten only when it changes.
add_custom_target(numacoll_version ALL
  COMMAND ${CMAKE_COMMAND}
          -DSOURCE_DIR=${CMAKE_SOURCE_DIR}
          -DOUTPUT=${CMAKE_BINARY_DIR}/generated/numacoll/version.hpp
          -DVERSION=${PROJECT_VERSION}
          -DBUILD_TYPE=${CMAKE_BUILD_TYPE}
          -DSIMGRID_VERSION=${SIMGRID_VERSION}
          -P ${CMAKE_SOURCE_DIR}/cmake/write_version.cmake
  BYPRODUCTS ${CMAKE_BINARY_DIR}/generated/numacoll/version.hpp
  COMMENT "Recording the numacoll revision")
