# `cmake --install`: the acmesim binary, the headers a scheduler plugin compiles against (the
# decision interface, the read-only view, the placement policies, QueueScheduler; nothing of
# SimGrid) and a CMake package, so that an out-of-tree plugin does
#
#   find_package(acmesim 0.1 REQUIRED)
#   add_library(mysched MODULE mysched.cpp)
#   target_link_libraries(mysched PRIVATE acmesim::scheduler_api)
#
# and can run `$<TARGET_FILE:acmesim::acmesim>` in its tests (docs/writing-a-scheduler.md).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(ACMESIM_PLUGIN_HEADERS
    sim/policy_api/SchedulerPlugin.hpp
    sim/policy_api/SchedulerApi.hpp
    sim/policy_api/ClusterState.hpp
    sim/policy_api/JobShape.hpp
    sim/policy_api/NodeSet.hpp
    sim/policy_api/PolicySpec.hpp
    sim/policies/QueueScheduler.hpp
    sim/policies/Placements.hpp
    models/cluster/Topology.hpp
    models/cluster/ClusterSpec.hpp
    models/workload/EmpiricalSpec.hpp
    models/workload/Job.hpp
    models/workload/RuntimeEstimates.hpp
    models/workload/EvalChunk.hpp
    models/common/EnumNames.hpp
    models/common/Text.hpp
    models/common/Random.hpp
    # to test a policy on a hand-built view, as acmesim's own scheduler tests do
    tests/support/HandBuiltView.hpp
    tests/support/TinyCluster.hpp)
set(ACMESIM_INCLUDE_DIR "${CMAKE_INSTALL_INCLUDEDIR}/acmesim")
foreach(header IN LISTS ACMESIM_PLUGIN_HEADERS)
  get_filename_component(dir "${header}" DIRECTORY)
  install(FILES "${header}" DESTINATION "${ACMESIM_INCLUDE_DIR}/${dir}")
endforeach()

# What a plugin compiles and links with: the headers, C++20, and the libraries they include.
add_library(acmesim_scheduler_api INTERFACE)
add_library(acmesim::scheduler_api ALIAS acmesim_scheduler_api)
set_target_properties(acmesim_scheduler_api PROPERTIES EXPORT_NAME scheduler_api)
target_include_directories(acmesim_scheduler_api INTERFACE "$<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>"
                                                           "$<INSTALL_INTERFACE:${ACMESIM_INCLUDE_DIR}>")
target_compile_features(acmesim_scheduler_api INTERFACE cxx_std_20)
target_link_libraries(acmesim_scheduler_api INTERFACE Boost::headers fmt::fmt)

install(TARGETS acmesim acmesim_scheduler_api EXPORT acmesimTargets RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
set(ACMESIM_CMAKE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/acmesim")
install(EXPORT acmesimTargets NAMESPACE acmesim:: DESTINATION "${ACMESIM_CMAKE_DIR}")
configure_package_config_file(cmake/acmesimConfig.cmake.in "${PROJECT_BINARY_DIR}/acmesimConfig.cmake"
                              INSTALL_DESTINATION "${ACMESIM_CMAKE_DIR}")
write_basic_package_version_file("${PROJECT_BINARY_DIR}/acmesimConfigVersion.cmake" COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/acmesimConfig.cmake" "${PROJECT_BINARY_DIR}/acmesimConfigVersion.cmake"
        DESTINATION "${ACMESIM_CMAKE_DIR}")
