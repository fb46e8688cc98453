# Checks at every build that the engines and the layers below the generators
# include nothing they must not know (cmake/check_layering.cmake); the
# engines' libraries depend on the check, so a crossing fails their build.
file(GLOB_RECURSE numacoll_layered_sources CONFIGURE_DEPENDS
  ${CMAKE_SOURCE_DIR}/common/*.?pp ${CMAKE_SOURCE_DIR}/topologies/*.?pp ${CMAKE_SOURCE_DIR}/schedule/*.?pp
  ${CMAKE_SOURCE_DIR}/costs/*.?pp ${CMAKE_SOURCE_DIR}/results/*.?pp ${CMAKE_SOURCE_DIR}/sim/*.?pp
  ${CMAKE_SOURCE_DIR}/exec/*.?pp ${CMAKE_SOURCE_DIR}/calibrate/*.?pp ${CMAKE_SOURCE_DIR}/validate/*.?pp ${CMAKE_SOURCE_DIR}/models/*.?pp)
add_custom_command(
  OUTPUT ${CMAKE_BINARY_DIR}/layering.stamp
  COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${CMAKE_SOURCE_DIR} -DSTAMP=${CMAKE_BINARY_DIR}/layering.stamp
          -P ${CMAKE_SOURCE_DIR}/cmake/check_layering.cmake
  DEPENDS ${numacoll_layered_sources} ${CMAKE_SOURCE_DIR}/cmake/check_layering.cmake
  COMMENT "Checking that the engines know no generator")
add_custom_target(numacoll_layering ALL DEPENDS ${CMAKE_BINARY_DIR}/layering.stamp)
