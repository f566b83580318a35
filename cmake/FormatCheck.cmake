# Fails when a C++ source under engine/, app/, widgets/ or tests/ is not clang-formatted.
# Run as a test: cmake -DROOT=... -DCLANG_FORMAT=... -P FormatCheck.cmake
# One clang-format process checks every file (one process per file took 155 s of the suite on
# the CI machine, one process for all 11 s); its diagnostics name the files that are off.
file(GLOB_RECURSE _sources
     ${ROOT}/engine/*.cpp ${ROOT}/engine/*.h ${ROOT}/app/*.cpp ${ROOT}/app/*.h
     ${ROOT}/widgets/*.cpp ${ROOT}/widgets/*.h ${ROOT}/tests/*.cpp ${ROOT}/tests/*.h)
execute_process(COMMAND ${CLANG_FORMAT} --dry-run --Werror ${_sources}
                RESULT_VARIABLE _rc OUTPUT_QUIET ERROR_VARIABLE _diagnostics)
if(NOT _rc EQUAL 0)
    # "path:line:col: error: code should be clang-formatted [-Wclang-format-violations]"
    string(REGEX MATCHALL "[^\n]+:[0-9]+:[0-9]+: error: code should be clang-formatted"
           _violations "${_diagnostics}")
    set(_bad "")
    foreach(_violation IN LISTS _violations)
        string(REGEX REPLACE ":[0-9]+:[0-9]+: error: code should be clang-formatted$" ""
               _file "${_violation}")
        list(APPEND _bad ${_file})
    endforeach()
    list(REMOVE_DUPLICATES _bad)
    if(NOT _bad)
        message(FATAL_ERROR "${CLANG_FORMAT} failed (exit ${_rc}):\n${_diagnostics}")
    endif()
    string(REPLACE ";" "\n  " _list "${_bad}")
    message(FATAL_ERROR "not clang-formatted (run clang-format -i on them):\n  ${_list}")
endif()
