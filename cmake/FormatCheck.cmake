# Fails when a C++ source under engine/, app/, widgets/ or tests/ is not clang-formatted.
# Run as a test: cmake -DROOT=... -DCLANG_FORMAT=... -P FormatCheck.cmake
file(GLOB_RECURSE _sources
     ${ROOT}/engine/*.cpp ${ROOT}/engine/*.h ${ROOT}/app/*.cpp ${ROOT}/app/*.h
     ${ROOT}/widgets/*.cpp ${ROOT}/widgets/*.h ${ROOT}/tests/*.cpp ${ROOT}/tests/*.h)
set(_bad "")
foreach(_file IN LISTS _sources)
    execute_process(COMMAND ${CLANG_FORMAT} --dry-run --Werror ${_file}
                    RESULT_VARIABLE _rc OUTPUT_QUIET ERROR_QUIET)
    if(NOT _rc EQUAL 0)
        list(APPEND _bad ${_file})
    endif()
endforeach()
if(_bad)
    string(REPLACE ";" "\n  " _list "${_bad}")
    message(FATAL_ERROR "not clang-formatted (run clang-format -i on them):\n  ${_list}")
endif()
