# One library per folder (docs/design.md, "Layers"): acmesim_<folder name> is every .cpp of the
# folder, so a new file is part of its folder's library without a line here. EXCLUDE names files
# of the folder that belong to no library (the program's main); SOURCES adds generated ones.
function(acmesim_folder_library folder)
  cmake_parse_arguments(L "" "" "LINKS;EXCLUDE;SOURCES" ${ARGN})
  get_filename_component(name "${folder}" NAME)
  file(GLOB sources CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/${folder}/*.cpp")
  foreach(excluded IN LISTS L_EXCLUDE)
    list(REMOVE_ITEM sources "${PROJECT_SOURCE_DIR}/${folder}/${excluded}")
  endforeach()
  list(SORT sources)
  add_library(acmesim_${name} STATIC ${sources} ${L_SOURCES})
  target_link_libraries(acmesim_${name} PUBLIC acmesim_options ${L_LINKS})
endfunction()
