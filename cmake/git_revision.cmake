# Writes the git revision header (rules/git_revision.h.in) at every build,
# touching the file only when the revision changed, so that `uckers
# --version` names the commit built and nothing else recompiles.
# Run as: cmake -DSOURCE_DIR=<project> -DOUT=<header> -P git_revision.cmake
execute_process(COMMAND git -C ${SOURCE_DIR} rev-parse --short=12 HEAD
                OUTPUT_VARIABLE UCKERS_GIT_REVISION OUTPUT_STRIP_TRAILING_WHITESPACE
                ERROR_QUIET RESULT_VARIABLE git_result)
if(NOT git_result EQUAL 0 OR UCKERS_GIT_REVISION STREQUAL "")
  set(UCKERS_GIT_REVISION unknown)
endif()
configure_file(${SOURCE_DIR}/rules/git_revision.h.in ${OUT} @ONLY)
