# CUDA is optional: the CUDA backend (engine/cuda, the tlens_cuda library) is built when nvcc is
# found, and skipped cleanly otherwise (engine/cuda/CudaUnavailable.cpp then answers "no device").
# TLENS_CUDA=OFF forces it off (the ASan build does). CMAKE_CUDA_ARCHITECTURES defaults to 90
# (H100/H200); override with -DCMAKE_CUDA_ARCHITECTURES="80;90" etc.
option(TLENS_CUDA "Build the CUDA backend when nvcc is available" ON)
set(TLENS_HAVE_CUDA OFF)
set(TLENS_HAVE_CUDNN OFF)
if(TLENS_CUDA)
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES 90)
    endif()
    # C++17 for the device code (CMake 3.25 does not know nvcc 13's C++20 flag; the .cu files need no
    # more); the host half of the backend is C++20 like the rest of the project.
    set(CMAKE_CUDA_STANDARD 17)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    if(CCACHE_PROGRAM)
      set(CMAKE_CUDA_COMPILER_LAUNCHER ${CCACHE_PROGRAM})
    endif()
    enable_language(CUDA)
    find_package(CUDAToolkit REQUIRED)
    set(TLENS_HAVE_CUDA ON)
    message(STATUS "CUDA toolkit found: ${CMAKE_CUDA_COMPILER} (CUDA ${CUDAToolkit_VERSION}, "
                   "architectures ${CMAKE_CUDA_ARCHITECTURES})")
    find_library(TLENS_CUDNN_LIBRARY cudnn
      HINTS ${CUDAToolkit_LIBRARY_DIR} ${CUDAToolkit_LIBRARY_ROOT} ${CUDAToolkit_TARGET_DIR}
      PATH_SUFFIXES lib lib64 lib/x64)
    find_path(TLENS_CUDNN_INCLUDE_DIR cudnn.h HINTS ${CUDAToolkit_INCLUDE_DIRS})
    if(TLENS_CUDNN_LIBRARY AND TLENS_CUDNN_INCLUDE_DIR)
      set(TLENS_HAVE_CUDNN ON)
      message(STATUS "cuDNN found: ${TLENS_CUDNN_LIBRARY}")
    else()
      message(STATUS "cuDNN not found: the CUDA backend is built without the Conv2D kernels "
                     "(convolutions run on the CPU)")
    endif()
  else()
    message(STATUS "CUDA toolkit not found: building the CPU backend only")
  endif()
endif()
