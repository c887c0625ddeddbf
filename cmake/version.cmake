# Writes version.h with the git commit of the source tree. Run at configure time and, through
# the ls_version target, at every build, so a rebuild after a commit names the new commit;
# configure_file leaves the file untouched when nothing changed (no needless recompiles).
# Inputs: SRC (source dir), OUT (version.h path), PROJECT_VERSION.
execute_process(COMMAND git rev-parse --short=12 HEAD WORKING_DIRECTORY ${SRC}
                OUTPUT_VARIABLE LS_GIT_COMMIT OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT LS_GIT_COMMIT)
  set(LS_GIT_COMMIT "unknown")
endif()
configure_file(${SRC}/src/model/version.h.in ${OUT} @ONLY)
