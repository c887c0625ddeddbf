# One static library per part (DESIGN.md, docs/design.md "Layers"), so that the layer
# table is enforced by the build:
#   - includes: a part is compiled with an include view (build/layers/PART/) that holds
#     only itself and the parts it may use, so `#include "analyze/x.h"` from model fails
#     with "No such file or directory";
#   - calls: each part is linked, whole, into a small check executable with only the parts
#     it may use (ls_layercheck_PART, built with everything), so a call to a higher part
#     fails with "undefined reference". Static libraries alone would not catch it: in the
#     program every part is linked and the call would resolve.
# ls_part(NAME [USES part...]) is the one line a new part needs.
#
# Sources of a part, by naming convention:
#   *.c                  host code, always built
#   *_cuda.c, *.cu       need the CUDA runtime      (else *_nocuda.c)
#   *_nccl.c             need CUDA and nccl.h       (else *_nonccl.c)
#   *_mpi.c              need MPI                   (else *_nompi.c)

set(ls_parts "")
set(ls_layercheck_main ${CMAKE_CURRENT_LIST_DIR}/layercheck_main.c)

# Files of src/PART that this build compiles; sets out_var, and gpu_var to 1 when one of
# them needs the CUDA runtime.
function(ls_part_sources part out_var gpu_var)
  file(GLOB c_files CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/${part}/*.c)
  file(GLOB cu_files CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/${part}/*.cu)
  set(src "")
  set(gpu 0)
  foreach(f ${c_files})
    if(f MATCHES "_nocuda\\.c$")
      set(want NOT ${have_cuda})
    elseif(f MATCHES "_cuda\\.c$")
      set(want ${have_cuda})
      set(is_gpu 1)
    elseif(f MATCHES "_nonccl\\.c$")
      set(want NOT ${have_nccl_h})
    elseif(f MATCHES "_nccl\\.c$")
      set(want ${have_nccl_h})
      set(is_gpu 1)
    elseif(f MATCHES "_nompi\\.c$")
      set(want NOT ${have_mpi})
    elseif(f MATCHES "_mpi\\.c$")
      set(want ${have_mpi})
    else()
      set(want 1)
    endif()
    if(${want})
      list(APPEND src ${f})
      if(is_gpu)
        set(gpu 1)
      endif()
    endif()
    unset(is_gpu)
  endforeach()
  if(have_cuda AND cu_files)
    list(APPEND src ${cu_files})
    set(gpu 1)
  endif()
  set(${out_var} ${src} PARENT_SCOPE)
  set(${gpu_var} ${gpu} PARENT_SCOPE)
endfunction()

# Compile settings of a target that belongs to part (its include view), given the parts
# it may use.
function(ls_part_view target part)
  set(view ${CMAKE_BINARY_DIR}/layers/${part})
  file(MAKE_DIRECTORY ${view})
  foreach(p ${part} ${ARGN})
    if(NOT EXISTS ${view}/${p})
      file(CREATE_LINK ${CMAKE_SOURCE_DIR}/src/${p} ${view}/${p} SYMBOLIC)
    endif()
  endforeach()
  target_include_directories(${target} PRIVATE ${view})
  target_include_directories(${target} PUBLIC ${JANSSON_INCLUDE} ${CMAKE_BINARY_DIR}/generated)
  add_dependencies(${target} ls_version)
endfunction()

# An executable that links library lib whole (every object, called or not) with what lib
# itself links: it fails to link when lib calls a part it does not link.
function(ls_link_check name lib)
  add_executable(${name} ${ls_layercheck_main} ${ARGN})
  target_link_libraries(${name} PRIVATE "$<LINK_LIBRARY:WHOLE_ARCHIVE,${lib}>")
  if(have_cuda)
    set_target_properties(${name} PROPERTIES LINKER_LANGUAGE CUDA CUDA_RUNTIME_LIBRARY Static)
  endif()
endfunction()

# `#include "../PART/x.h"` reaches past the include view: allowed only for parts the
# part may use (configure fails otherwise).
function(ls_part_relative_includes part uses)
  file(GLOB headers ${CMAKE_SOURCE_DIR}/src/${part}/*.h)
  foreach(f ${ARGN} ${headers})
    file(STRINGS ${f} lines REGEX "^#include \"\\.\\./")
    foreach(line ${lines})
      string(REGEX REPLACE "^#include \"\\.\\./([a-z_]+)/.*" "\\1" target "${line}")
      if(NOT target IN_LIST uses)
        message(FATAL_ERROR "${f}: ${line}: part ${part} may not use ${target}")
      endif()
    endforeach()
  endforeach()
endfunction()

function(ls_part part)
  cmake_parse_arguments(arg "" "" "USES" ${ARGN})
  foreach(dep ${arg_USES})
    if(NOT TARGET ls_${dep})
      message(FATAL_ERROR "part ${part} uses ${dep}, which is not a part declared above it")
    endif()
  endforeach()
  ls_part_sources(${part} src gpu)
  ls_part_relative_includes(${part} "${arg_USES}" ${src})
  set(lib ls_${part})
  add_library(${lib} STATIC ${src})
  ls_part_view(${lib} ${part} ${arg_USES})
  set(deps "")
  foreach(dep ${arg_USES})
    list(APPEND deps ls_${dep})
  endforeach()
  target_link_libraries(${lib} PUBLIC ${deps} ${JANSSON_LIB} Threads::Threads m ${CMAKE_DL_LIBS})
  # only a part with a *_mpi.c file links MPI; none has one today: nccl/mpirt.c loads
  # libmpi with dlopen, so the binary runs where MPI is absent (issue 15)
  set(mpi_src ${src})
  list(FILTER mpi_src INCLUDE REGEX "_mpi\\.c$")
  if(have_mpi AND mpi_src)
    target_link_libraries(${lib} PUBLIC MPI::MPI_C)
    target_compile_definitions(${lib} PUBLIC LS_HAVE_MPI=1)
  endif()
  if(gpu)
    if(have_nccl_h)
      target_include_directories(${lib} PRIVATE ${NCCL_INCLUDE})
      target_compile_definitions(${lib} PUBLIC LS_HAVE_NCCL_H=1)
    endif()
    set_target_properties(${lib} PROPERTIES CUDA_RUNTIME_LIBRARY Static)
    target_compile_options(${lib} PRIVATE
                           $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra,-Werror>)
    target_link_libraries(${lib} PUBLIC CUDA::cudart_static)
    target_compile_definitions(${lib} PUBLIC LS_HAVE_CUDA=1)
  endif()
  set_target_properties(${lib} PROPERTIES LS_USES "${arg_USES}")
  ls_link_check(ls_layercheck_${part} ${lib})
  set(ls_parts ${ls_parts} ${part} PARENT_SCOPE)
endfunction()

# A probe for the layer test (tests/layers/): source compiled as if it were a file of
# part and linked the way ls_layercheck_PART links, built only when asked.
function(ls_layer_probe name part source)
  get_target_property(uses ls_${part} LS_USES)
  add_library(${name}_lib STATIC EXCLUDE_FROM_ALL ${source})
  ls_part_view(${name}_lib ${part} ${uses})
  target_link_libraries(${name}_lib PUBLIC ls_${part})
  ls_link_check(${name} ${name}_lib)
  set_target_properties(${name} PROPERTIES EXCLUDE_FROM_ALL ON)
endfunction()
