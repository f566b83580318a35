# Precompiled headers for the targets whose files all parse the same heavy headers: Qt's widget
# headers and GoogleTest with GoogleMock (docs/building.md has the figures). A header is
# precompiled once per target, at a cost of a few files' parsing, so only targets with many
# files get one.
#   astrolabe_precompile(TARGET [QT] [GTEST])
#
# A precompiled header differs from build to build (GCC's output is not reproducible), so a
# compiler cache can never reuse an object compiled with one: every clean clone (CI's, the fresh
# root's) would recompile those files. Precompiled headers therefore pay only where the cache has
# nothing to give, and ASTROLABE_PCH is decided once, when a build folder is first configured: on
# when there is no compiler cache or it is empty (a new machine's first build), off when it
# already holds objects. -DASTROLABE_PCH=ON or OFF decides by hand. The sanitized clang build
# always has them off, so a file that leans on a header it does not include itself still fails.
if(NOT DEFINED ASTROLABE_PCH)
    set(pch_default ON)
    if(CCACHE_PROGRAM AND CMAKE_CXX_COMPILER_LAUNCHER STREQUAL CCACHE_PROGRAM)
        execute_process(COMMAND ${CCACHE_PROGRAM} --print-stats OUTPUT_VARIABLE ccache_stats
                        ERROR_QUIET RESULT_VARIABLE ccache_status)
        if(ccache_status EQUAL 0 AND ccache_stats MATCHES "files_in_cache\t([0-9]+)")
            if(CMAKE_MATCH_1 GREATER 0)
                set(pch_default OFF)
            endif()
        endif()
    endif()
    set(ASTROLABE_PCH ${pch_default} CACHE BOOL
        "Precompile the heavy headers shared by the Qt and test targets (decided at the first configure)")
    message(STATUS "Precompiled headers: ${ASTROLABE_PCH}")
endif()

set(ASTROLABE_PCH_STD <algorithm> <functional> <map> <memory> <optional> <string> <vector>)
set(ASTROLABE_PCH_QT <QApplication> <QColor> <QComboBox> <QHBoxLayout> <QHeaderView> <QLabel>
    <QObject> <QPainter> <QPushButton> <QString> <QStringList> <QVBoxLayout> <QWidget>)
set(ASTROLABE_PCH_GTEST <gtest/gtest.h> <gmock/gmock.h>)

function(astrolabe_precompile target)
    if(NOT ASTROLABE_PCH)
        return()
    endif()
    set(headers ${ASTROLABE_PCH_STD})
    foreach(kind IN LISTS ARGN)
        list(APPEND headers ${ASTROLABE_PCH_${kind}})
    endforeach()
    target_precompile_headers(${target} PRIVATE ${headers})
    # Through a precompiled header GCC 12 no longer treats libstdc++'s inlined internals as a
    # system header's, and reports its known false positives there: -Warray-bounds and
    # -Wstringop-overread ("__builtin_memcpy forming offset [32, 100] is out of the bounds
    # [0, 32]" for a string literal pushed into a vector), and the rest of the family for the
    # same reason. The builds without precompiled headers (CI's, the sanitized
    # one) keep these warnings.
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
        target_compile_options(${target} PRIVATE -Wno-array-bounds -Wno-stringop-overread
                               -Wno-stringop-overflow -Wno-restrict)
    endif()
endfunction()
