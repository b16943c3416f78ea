// The bench signature: `papan bench` (its default depth, every variant) must give the node count
// recorded in bench/signature, so that every change of search or evaluation behaviour is a
// deliberate one (the commit that makes it updates the file and ends its message "Bench: N").
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

namespace {

std::string recorded_signature() {
    std::ifstream in(PAPAN_BENCH_SIGNATURE);
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line[0] != '#') {
            return line;
        }
    }
    return "";
}

TEST(BenchSignature, MatchesTheRecordedOne) {
    const std::string recorded = recorded_signature();
    ASSERT_FALSE(recorded.empty()) << "no signature in " << PAPAN_BENCH_SIGNATURE;
    FILE* p = ::popen(PAPAN_BINARY " bench --json 2>&1", "r");
    ASSERT_NE(p, nullptr);
    std::string out;
    char buf[4096];
    while (std::fgets(buf, sizeof buf, p) != nullptr) {
        out += buf;
    }
    ASSERT_EQ(::pclose(p), 0) << out;
    const auto at = out.find("\"bench\":");
    ASSERT_NE(at, std::string::npos) << out;
    const std::string measured = std::to_string(std::stoull(out.substr(at + 8)));
    EXPECT_EQ(measured, recorded) << "the search's behaviour changed: if on purpose, write "
                                  << measured << " to bench/signature and end the commit message "
                                  << "with \"Bench: " << measured << "\"";
}

}  // namespace
