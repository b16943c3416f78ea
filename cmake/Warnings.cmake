# Warnings are errors on our own code only; third-party headers come in as SYSTEM includes.
function(papan_warnings target)
    target_compile_options(${target} PRIVATE
        -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow
        -Wnon-virtual-dtor -Wold-style-cast -Wswitch-enum)
    if(PAPAN_WERROR)
        target_compile_options(${target} PRIVATE -Werror)
    endif()
    # GCC 12's -Wmaybe-uninitialized fires inside libstdc++'s <regex> (std::function in its
    # NFA states) at -O1 with the sanitizers' instrumentation: a false positive of the header,
    # not of our code. The release build keeps the warning.
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND (PAPAN_SANITIZE OR PAPAN_TSAN))
        target_compile_options(${target} PRIVATE -Wno-maybe-uninitialized)
    endif()
endfunction()
