// Regression inputs of the fuzz targets (fuzz/, run by scripts/fuzz): every file of
// tests/data/fuzz-regressions/{fen,pdn,move_text}/ goes through the same checks as in its
// libFuzzer target (fuzz/<target>_fuzz.cpp, compiled here without the libFuzzer entry point, a
// broken invariant thrown as std::logic_error). A broken invariant fails the test; a crash shows
// as one, under the asan-ubsan build too. A missing or empty folder fails too: a test with
// nothing to replay would pass without checking anything. Each file is an input that once broke
// a check:
//   fen/thai-capture-path-read-as-ambiguous: Thai "W:WK23:B9,K10,K11,19", the 1-piece capture
//     23-5 beside 23-16-7-14-5 was written "23-5" and parse_move read it as ambiguous (901c003).
//   fen/turkish-king-routes-overflow-movelist: a Turkish position of kings with more than 512
//     capture routes; generate_routes wrote past the end of its MoveList (an assert in debug,
//     memory corruption in release). MoveList::push now drops what does not fit and says so
//     (overflowed()), and parse_move reads such a position against its distinct moves.
//   pdn/result-tag-disagrees-with-terminator: [Result "0-2"] over move text ending in "*"; the
//     writer wrote the tag from the tag and the terminator from the move text, so the two
//     disagreed ("0-2" ... "*"). Both now come from resolve_pdn_result.
//   pdn/move-error-cuts-a-utf8-character, move_text/malformed-move-quote-cuts-a-utf8-character:
//     a malformed move of "a" and 40 Cyrillic letters; parse_move quoted its first 64 bytes, half
//     a letter at the end, and the error was not UTF-8 (JSON output then threw). utf8_prefix now
//     cuts before the letter.
#define PAPAN_FUZZ_NO_ENTRY 1

#include "../../fuzz/fen_fuzz.cpp"
#include "../../fuzz/move_text_fuzz.cpp"
#include "../../fuzz/pdn_fuzz.cpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace fs = std::filesystem;

std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

using OneInput = int (*)(const std::uint8_t*, std::size_t);

void run_regressions(std::string_view target, OneInput one_input) {
    const fs::path dir = fs::path(PAPAN_TEST_DATA_DIR) / "fuzz-regressions" / target;
    ASSERT_TRUE(fs::is_directory(dir)) << "no regression folder " << dir;
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(dir)) {
        if (entry.is_regular_file()) {
            files.push_back(entry.path());
        }
    }
    ASSERT_FALSE(files.empty()) << "no regression input in " << dir;
    std::sort(files.begin(), files.end());
    for (const fs::path& path : files) {
        SCOPED_TRACE(path.string());
        const std::string data = read_file(path);
        std::string finding;
        try {
            (void)one_input(reinterpret_cast<const std::uint8_t*>(data.data()), data.size());
        } catch (const std::logic_error& e) {
            finding = e.what();
        }
        EXPECT_TRUE(finding.empty()) << finding;
    }
}

TEST(FuzzRegression, Fen) {
    run_regressions("fen", &papan::fuzz::fen_fuzz::one_input);
}

TEST(FuzzRegression, Pdn) {
    run_regressions("pdn", &papan::fuzz::pdn_fuzz::one_input);
}

TEST(FuzzRegression, MoveText) {
    run_regressions("move_text", &papan::fuzz::move_text_fuzz::one_input);
}

}  // namespace
