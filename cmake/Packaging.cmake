# What `cmake --install` puts where, and the Debian package CPack builds from it
# (packaging/deb.sh). Dependencies are declared from the shared libraries actually linked
# (dpkg-shlibdeps), plus the few Qt parts loaded at run time that no library links.
include(GNUInstallDirs)

install(TARGETS astrolabe-cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The modules the executables open only when needed, where core/Modules.cpp looks for them
# relative to the executables (engine/core/CMakeLists.txt): the packet tier (ns-3) for a packet
# run, the PNG renderer (Qt) for a chart asked for as PNG. dpkg-shlibdeps reads their
# dependencies from them.
install(TARGETS astrolabe-packet LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/astrolabe)
if(ASTROLABE_BUILD_GUI)
    install(TARGETS astrolabe-svg-png LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/astrolabe)
    install(TARGETS astrolabe RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
    install(FILES packaging/debian/astrolabe.desktop
            DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
    install(FILES resources/icons/astrolabe.svg
            DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
endif()
install(DIRECTORY projects/ DESTINATION ${CMAKE_INSTALL_DATADIR}/astrolabe/projects
        PATTERN "*.db" EXCLUDE PATTERN "*.db-*" EXCLUDE)
install(DIRECTORY resources/lessons/ DESTINATION ${CMAKE_INSTALL_DATADIR}/astrolabe/lessons
        PATTERN "*.db" EXCLUDE PATTERN "*.db-*" EXCLUDE)
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR})

# Manual pages: astrolabe-cli's is written from its own --help texts after it is built.
set(man_dir ${CMAKE_BINARY_DIR}/man)
add_custom_command(
    OUTPUT ${man_dir}/astrolabe-cli.1.gz ${man_dir}/astrolabe.1.gz
    COMMAND ${CMAKE_COMMAND} -E make_directory ${man_dir}
    COMMAND ${PROJECT_SOURCE_DIR}/packaging/manpage.sh $<TARGET_FILE:astrolabe-cli>
            ${man_dir}/astrolabe-cli.1 ${PROJECT_VERSION}
    COMMAND gzip -9nf ${man_dir}/astrolabe-cli.1
    COMMAND gzip -9nc ${PROJECT_SOURCE_DIR}/packaging/debian/astrolabe.1 > ${man_dir}/astrolabe.1.gz
    DEPENDS astrolabe-cli ${PROJECT_SOURCE_DIR}/packaging/manpage.sh
            ${PROJECT_SOURCE_DIR}/packaging/debian/astrolabe.1
    COMMENT "Writing the manual pages")
add_custom_target(manpages ALL DEPENDS ${man_dir}/astrolabe-cli.1.gz ${man_dir}/astrolabe.1.gz)
install(FILES ${man_dir}/astrolabe-cli.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
if(ASTROLABE_BUILD_GUI)
    install(FILES ${man_dir}/astrolabe.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endif()

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME astrolabe)
set(CPACK_PACKAGE_VENDOR "Astrolabe")
set(CPACK_PACKAGE_CONTACT "Astrolabe developers <astrolabe@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "laboratory for designing distributed AI training platforms")
set(CPACK_PACKAGE_DESCRIPTION
    "Assemble multi-dimensional NPU networks, run Chakra traces, generated LLM training\n"
    "iterations or collective microbenchmarks on them, and see per-NPU timelines, link and\n"
    "dimension utilization, and runs side by side. Reads ASTRA-sim 2.x inputs unchanged.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # astrolabe_<version>_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
if(ASTROLABE_BUILD_GUI)
    # Loaded by Qt at run time, so no linked library names them: the platform plugins
    # (xcb, offscreen) live in libqt6gui6, the SVG icon engine (the window icon) in libqt6svg6.
    set(CPACK_DEBIAN_PACKAGE_DEPENDS "libqt6gui6, libqt6svg6")
endif()
set(CPACK_STRIP_FILES ON)
include(CPack)
