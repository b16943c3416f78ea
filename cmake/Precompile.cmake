# Build-time helpers for the test executables (docs/operations.md, "make test's time").
#
# papan_test_build(target [HEADERS...]): how a test executable is built.
#
# The HEADERS are precompiled: the heavy headers every file of a test executable includes
# (GoogleTest, nlohmann/json, the standard library). Each test file otherwise parses them again:
# 1.5-2 s per file measured on two cores. GCC 12 does not keep the system-header status of code
# that comes from a precompiled header, so its known false -Warray-bounds, -Wstringop-overflow
# and -Wrestrict reports on std::string inside libstdc++ would become errors under -Werror:
# those three are off for the targets that use one.
#
# Tests are built at -O1 in Release; optimising them at -O3 took most of their compile time and
# buys nothing (the code under test is in the libraries, built as shipped).
option(PAPAN_PCH "Precompile the heavy headers of the test executables" ON)

function(papan_test_build target)
    if(CMAKE_BUILD_TYPE STREQUAL "Release")
        target_compile_options(${target} PRIVATE -O1)
    endif()
    if(NOT PAPAN_PCH OR ARGC EQUAL 1)
        return()
    endif()
    target_precompile_headers(${target} PRIVATE ${ARGN})
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
        target_compile_options(${target} PRIVATE -Wno-array-bounds -Wno-stringop-overflow
                                                 -Wno-restrict)
    endif()
endfunction()
