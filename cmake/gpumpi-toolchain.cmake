# cmake -DCMAKE_TOOLCHAIN_FILE=PREFIX/lib/cmake/gpumpi/gpumpi-toolchain.cmake:
# the project's C is built by gpumpicc, for the GPU (or, with
# GPUMPI_BACKEND=threads in the environment, for host threads).
get_filename_component(_gpumpi_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
set(CMAKE_C_COMPILER "${_gpumpi_prefix}/bin/gpumpicc" CACHE FILEPATH "gpumpi's mpicc")
