// What every libFuzzer target of fuzz/ shares: the invariant check and the entry point.
//
// A target defines, in its own namespace, `constexpr Checker check{"fuzz_<target>"};` and checks
// its invariants with `check(ok, "what broke", detail)`, and it names its one-input function in
// PAPAN_FUZZ_ENTRY(...). Defining PAPAN_FUZZ_NO_ENTRY before including a target (the regression
// test, tests/core/fuzz_regression_test.cpp) drops the libFuzzer entry point and turns a broken
// invariant into a thrown std::logic_error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>

namespace papan::fuzz {

// How a finding's detail is printed: after the message, in brackets ("what [detail]"), or as a
// block of text between two rules (a whole input that may span several lines).
enum class DetailStyle : std::uint8_t {
    Inline,
    Block,
};

// A broken invariant: reported on stderr as "<target>: invariant broken: <what> ...", then
// abort() (libFuzzer keeps the input); in the regression test (PAPAN_FUZZ_NO_ENTRY) thrown as
// std::logic_error("<what> [<detail>]") instead.
class Checker {
public:
    explicit constexpr Checker(const char* target, DetailStyle style = DetailStyle::Inline)
        : target_(target)
        , style_(style) {}

    void operator()(bool ok, const char* what, std::string_view detail) const {
        if (!ok) {
            fail(what, detail, true);
        }
    }

    // Without a detail: the message alone.
    void operator()(bool ok, const char* what) const {
        if (!ok) {
            fail(what, {}, false);
        }
    }

private:
    [[noreturn]] void fail(const char* what, std::string_view detail, bool has_detail) const {
#ifdef PAPAN_FUZZ_NO_ENTRY
        (void)has_detail;
        (void)target_;
        (void)style_;
        throw std::logic_error(std::string(what) + " [" + std::string(detail) + "]");
#else
        const int size = static_cast<int>(detail.size());
        if (!has_detail) {
            std::fprintf(stderr, "%s: invariant broken: %s\n", target_, what);
        } else if (style_ == DetailStyle::Block) {
            std::fprintf(stderr,
                         "%s: invariant broken: %s\n--- text ---\n%.*s\n------------\n",
                         target_,
                         what,
                         size,
                         detail.data());
        } else {
            std::fprintf(
                stderr, "%s: invariant broken: %s [%.*s]\n", target_, what, size, detail.data());
        }
        std::abort();
#endif
    }

    const char* target_;
    DetailStyle style_;
};

}  // namespace papan::fuzz

// The libFuzzer entry point calling `one_input` (a function taking the input's bytes and size);
// nothing in the regression test.
#ifdef PAPAN_FUZZ_NO_ENTRY
#define PAPAN_FUZZ_ENTRY(one_input)
#else
#define PAPAN_FUZZ_ENTRY(one_input)                                                                \
    extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {            \
        return one_input(data, size);                                                              \
    }
#endif
