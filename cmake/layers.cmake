# Links a project library to the libraries its row of cmake/layers.txt names
# (the one table of the layers; tools/check_layers reads it too), and gives
# it the project's include root. A dependency written "name?" is linked only
# where that target is built (the gRPC stubs under UCKERS_GRPC). Libraries of
# the project are linked through this function only: tools/check_layers fails
# on a target_link_libraries that names one.
file(STRINGS ${PROJECT_SOURCE_DIR}/cmake/layers.txt UCKERS_LAYER_LINES REGEX "^uckers_")
set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             ${PROJECT_SOURCE_DIR}/cmake/layers.txt)

function(uckers_layer library)
  set(found FALSE)
  foreach(line IN LISTS UCKERS_LAYER_LINES)
    string(REGEX REPLACE "[ \t]+" ";" fields "${line}")
    list(GET fields 0 name)
    if(NOT name STREQUAL library)
      continue()
    endif()
    set(found TRUE)
    list(LENGTH fields count)
    set(i 2)
    while(i LESS count)
      list(GET fields ${i} dep)
      if(dep STREQUAL "-")
        break()
      endif()
      if(NOT dep MATCHES "^uckers_")
        break()  # the description
      endif()
      if(dep MATCHES "\\?$")
        string(REGEX REPLACE "\\?$" "" dep "${dep}")
        if(TARGET ${dep})
          target_link_libraries(${library} PUBLIC ${dep})
        endif()
      else()
        target_link_libraries(${library} PUBLIC ${dep})
      endif()
      math(EXPR i "${i} + 1")
    endwhile()
  endforeach()
  if(NOT found)
    message(FATAL_ERROR "${library} has no row in cmake/layers.txt: add one there")
  endif()
  target_include_directories(${library} PUBLIC ${PROJECT_SOURCE_DIR})
endfunction()
