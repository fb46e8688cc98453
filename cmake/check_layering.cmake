# Fails when a module includes a header it must not know, so that the build,
# not a convention, keeps the layers apart:
# - the engines (sim/, exec/, validate/), calibrate/ and everything below the generators
#   (common/, topologies/, schedule/, costs/, results/) include nothing from
#   algorithms/;
# - models/ may read a layout (algorithms/layout, hierarchy, levels) and
#   the catalog's list of names (algorithms/catalog.def), never a
#   generator, the registry or the patterns.
# Usage: cmake -DSOURCE_DIR=<tree> [-DSTAMP=<file>] -P check_layering.cmake
set(layout_headers "algorithms/((layout|hierarchy|levels)\\.hpp|catalog\\.def)")
set(violations "")
foreach(folder common topologies schedule costs results sim exec calibrate validate models)
  file(GLOB_RECURSE sources "${SOURCE_DIR}/${folder}/*.cpp" "${SOURCE_DIR}/${folder}/*.hpp")
  foreach(source IN LISTS sources)
    file(STRINGS "${source}" includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"algorithms/")
    foreach(line IN LISTS includes)
      string(REGEX MATCH "algorithms/[^\"]*" header "${line}")
      if(folder STREQUAL "models" AND header MATCHES "^${layout_headers}$")
        continue()
      endif()
      file(RELATIVE_PATH name "${SOURCE_DIR}" "${source}")
      if(folder STREQUAL "models")
        string(APPEND violations "  ${name} includes ${header}: models read a layout, never a generator\n")
      else()
        string(APPEND violations "  ${name} includes ${header}: ${folder}/ may not know the generators\n")
      endif()
    endforeach()
  endforeach()
endforeach()
if(violations)
  message(FATAL_ERROR "numacoll's layers are crossed:\n${violations}")
endif()
if(STAMP)
  file(TOUCH "${STAMP}")
endif()
