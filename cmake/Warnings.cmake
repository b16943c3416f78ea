# Warnings are errors on our own code only; third-party headers come in as SYSTEM includes.
function(papan_warnings target)
    target_compile_options(${target} PRIVATE
        -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow
        -Wnon-virtual-dtor -Wold-style-cast -Wswitch-enum)
    if(PAPAN_WERROR)
        target_compile_options(${target} PRIVATE -Werror)
    endif()
endfunction()
