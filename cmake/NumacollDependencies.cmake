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
