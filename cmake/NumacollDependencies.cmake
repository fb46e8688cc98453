# Finds every dependency the design card fixes. All of them are Debian
# packages; scripts/setup.sh installs the missing ones.
find_package(PkgConfig REQUIRED)
pkg_check_modules(HWLOC REQUIRED IMPORTED_TARGET hwloc>=2.0)
pkg_check_modules(SIMGRID REQUIRED IMPORTED_TARGET simgrid>=3.32)
find_package(Boost 1.74 REQUIRED)          # Boost.Graph is header-only here
find_package(fmt REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(CLI11 REQUIRED)
find_package(GTest REQUIRED)
find_package(Threads REQUIRED)
find_package(MPI REQUIRED COMPONENTS C)   # Open MPI (openmpi-bin, libopenmpi-dev): the MPI engine
# MPICH (libmpich-dev, mpich) beside it: the interposition library is built
# for it too when it is installed (interpose/).
pkg_check_modules(MPICH IMPORTED_TARGET GLOBAL mpich)

# numacoll_embed(<target> <namespace> <comment> <input files...>): compiles
# the inputs' text (paths relative to the current source folder) into
# <target>, inside `namespace` (see cmake/embed_files.cmake), so that bundled
# data travels inside the binary.
function(numacoll_embed target namespace comment)
  set(inputs "")
  foreach(input IN LISTS ARGN)
    list(APPEND inputs ${CMAKE_CURRENT_SOURCE_DIR}/${input})
  endforeach()
  set(output ${CMAKE_CURRENT_BINARY_DIR}/embedded_${target}.cpp)
  add_custom_command(
    OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} -DOUTPUT=${output} "-DINPUTS=${inputs}" -DNAMESPACE=${namespace}
            -P ${CMAKE_SOURCE_DIR}/cmake/embed_files.cmake
    DEPENDS ${inputs} ${CMAKE_SOURCE_DIR}/cmake/embed_files.cmake
    COMMENT "${comment}"
    VERBATIM)  # quotes the ';' of the INPUTS list for the shell
  target_sources(${target} PRIVATE ${output})
endfunction()
