# Installs libhetscal, its public headers, an exported CMake package
# (find_package(hetscal) -> hetscal::hetscal) and a pkg-config file.
include(CMakePackageConfigHelpers)

install(TARGETS hetscal EXPORT hetscalTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/hetscal DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

set(HETSCAL_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/hetscal)
install(EXPORT hetscalTargets NAMESPACE hetscal:: DESTINATION ${HETSCAL_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/hetscalConfig.cmake.in
  ${PROJECT_BINARY_DIR}/hetscalConfig.cmake INSTALL_DESTINATION ${HETSCAL_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/hetscalConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/hetscalConfig.cmake ${PROJECT_BINARY_DIR}/hetscalConfigVersion.cmake
  DESTINATION ${HETSCAL_CMAKE_DIR})

# The .pc file finds its prefix relative to its own location, so the install is relocatable
# whatever CMAKE_INSTALL_LIBDIR is (lib, lib64, lib/x86_64-linux-gnu).
file(RELATIVE_PATH HETSCAL_PC_TO_PREFIX ${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/pkgconfig
     ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" HETSCAL_PC_TO_PREFIX "${HETSCAL_PC_TO_PREFIX}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/hetscal.pc.in ${PROJECT_BINARY_DIR}/hetscal.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/hetscal.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
