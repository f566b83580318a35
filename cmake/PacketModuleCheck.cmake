# Fails when astrolabe-packet.so needs a symbol of ours that one of the executables opening it
# does not export (network/PacketTier.h: the module links nothing of ours and resolves the
# engine against its host, so a host that does not link or export a function the module calls
# could not load it). Run as a test:
#   cmake -DNM=<nm> -DMODULE=<astrolabe-packet.so> "-DHOSTS=<exe>;<exe>" -P PacketModuleCheck.cmake
cmake_minimum_required(VERSION 3.16)
foreach(_var NM MODULE HOSTS)
    if(NOT DEFINED ${_var})
        message(FATAL_ERROR "usage: cmake -DNM=<nm> -DMODULE=<module> \"-DHOSTS=<exe>;...\" -P PacketModuleCheck.cmake")
    endif()
endforeach()

execute_process(COMMAND ${NM} -D --undefined-only ${MODULE} OUTPUT_VARIABLE _undefined
                RESULT_VARIABLE _status)
if(NOT _status EQUAL 0)
    message(FATAL_ERROR "${NM} could not read ${MODULE}")
endif()
# Our symbols: C++ names in namespace astrolabe (mangled "9astrolabe").
string(REGEX MATCHALL "[^ \t\r\n]*9astrolabe[^ \t\r\n]*" _needed "${_undefined}")
list(REMOVE_DUPLICATES _needed)
list(LENGTH _needed _count)
if(_count EQUAL 0)
    message(FATAL_ERROR "${MODULE} needs no symbol of ours: is it the packet module?")
endif()

set(_errors "")
foreach(_host IN LISTS HOSTS)
    execute_process(COMMAND ${NM} -D --defined-only ${_host} OUTPUT_VARIABLE _defined)
    string(REGEX MATCHALL "[^ \t\r\n]*9astrolabe[^ \t\r\n]*" _exported "${_defined}")
    foreach(_symbol IN LISTS _needed)
        if(NOT _symbol IN_LIST _exported)
            list(APPEND _errors "${_host} does not export ${_symbol}, which ${MODULE} needs")
        endif()
    endforeach()
endforeach()
if(_errors)
    string(REPLACE ";" "\n  " _text "${_errors}")
    message(FATAL_ERROR "the packet module would not load:\n  ${_text}\n(link the function "
                        "into the executable, and build it with astrolabe_packet_host())")
endif()
list(LENGTH HOSTS _hosts)
message(STATUS "astrolabe-packet.so: its ${_count} symbols of ours are exported by all ${_hosts} hosts")
