# What `cmake --install build --prefix DIR` puts under DIR: the `numacoll`
# program (bin/), the public headers (include/numacoll/), libnumacoll.so
# and the MPI interposition libraries (lib/), the bundled machines and
# parameter sets (share/numacoll/), a CMake package
# (find_package(numacoll): numacoll::numacoll, the library, and
# numacoll::program) and a pkg-config file (numacoll.pc). Both are
# relocatable: they find the prefix from where they lie.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS numacoll_library EXPORT numacollTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
set_target_properties(numacoll PROPERTIES EXPORT_NAME program)
install(TARGETS numacoll EXPORT numacollTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/numacoll DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${CMAKE_BINARY_DIR}/generated/numacoll/version.hpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/numacoll)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/topologies/bundled/ DESTINATION ${CMAKE_INSTALL_DATADIR}/numacoll/machines)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/costs/params/ DESTINATION ${CMAKE_INSTALL_DATADIR}/numacoll/params)
install(FILES ${CMAKE_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/numacoll)

set(numacoll_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/numacoll)
install(EXPORT numacollTargets NAMESPACE numacoll:: DESTINATION ${numacoll_cmake_dir})
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/numacollConfig.cmake.in
                              ${CMAKE_BINARY_DIR}/numacollConfig.cmake INSTALL_DESTINATION ${numacoll_cmake_dir}
                              PATH_VARS CMAKE_INSTALL_DATADIR)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/numacollConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/numacollConfig.cmake ${CMAKE_BINARY_DIR}/numacollConfigVersion.cmake
        DESTINATION ${numacoll_cmake_dir})

file(RELATIVE_PATH numacoll_pc_to_prefix /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
string(REGEX REPLACE "/$" "" numacoll_pc_to_prefix "${numacoll_pc_to_prefix}")
configure_file(${CMAKE_SOURCE_DIR}/cmake/numacoll.pc.in ${CMAKE_BINARY_DIR}/numacoll.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/numacoll.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
