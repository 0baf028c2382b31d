# find_package(gpumpi): where gpumpi is, and a test helper.
#   gpumpi_C_COMPILER       gpumpicc (use it through the toolchain file below)
#   gpumpi_TOOLCHAIN_FILE   -DCMAKE_TOOLCHAIN_FILE=... builds the project's C with gpumpicc
#   gpumpi_BUILD            gpumpi-build, gpumpi_RUN gpumpirun
#   gpumpi_add_test(NAME name COMMAND target [args...] RANKS n)
#                           a CTest test running target with n ranks
get_filename_component(_gpumpi_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
set(gpumpi_C_COMPILER "${_gpumpi_prefix}/bin/gpumpicc")
set(gpumpi_BUILD "${_gpumpi_prefix}/bin/gpumpi-build")
set(gpumpi_RUN "${_gpumpi_prefix}/bin/gpumpirun")
set(gpumpi_TOOLCHAIN_FILE "${CMAKE_CURRENT_LIST_DIR}/gpumpi-toolchain.cmake")
set(gpumpi_FOUND TRUE)
if(CMAKE_C_COMPILER AND NOT CMAKE_C_COMPILER STREQUAL gpumpi_C_COMPILER)
  message(WARNING "gpumpi: this project's C compiler is ${CMAKE_C_COMPILER}, not gpumpicc; configure it with "
                  "-DCMAKE_TOOLCHAIN_FILE=${gpumpi_TOOLCHAIN_FILE}")
endif()

function(gpumpi_add_test)
  cmake_parse_arguments(T "" "NAME;RANKS" "COMMAND" ${ARGN})
  if(NOT T_NAME OR NOT T_COMMAND)
    message(FATAL_ERROR "gpumpi_add_test(NAME name COMMAND target [args...] RANKS n)")
  endif()
  if(NOT T_RANKS)
    set(T_RANKS 1)
  endif()
  list(POP_FRONT T_COMMAND program)
  if(TARGET ${program})
    set(program $<TARGET_FILE:${program}>)
  endif()
  add_test(NAME ${T_NAME} COMMAND ${program} ${T_COMMAND} ---gpumpi -n ${T_RANKS})
endfunction()
