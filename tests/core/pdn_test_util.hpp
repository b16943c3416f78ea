// Helpers of the PDN tests: the PDN files of tests/data/pdn and reading with options.
#pragma once

#include <papan/core/notation/pdn.hpp>

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace papan::core::test {

// The bytes of tests/data/pdn/<name> (a failed expectation when it cannot be read).
inline std::string read_pdn_data(const std::string& name) {
    std::ifstream in(std::string(PAPAN_TEST_DATA_DIR) + "/pdn/" + name, std::ios::binary);
    EXPECT_TRUE(in.good()) << name;
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// Read options with variant detection (as `papan pdn check` without --variant).
inline PdnReadOptions detecting(bool lenient_setup = false) {
    PdnReadOptions o;
    o.detect_variant = true;
    o.lenient_setup  = lenient_setup;
    return o;
}

// The entries of a data file read as bytes (decoded first).
inline std::vector<PdnEntry> data_entries(const std::string& name,
                                          const PdnReadOptions& options = detecting()) {
    return read_pdn_document(read_pdn_data(name), options).entries;
}

// Whether any note of the entry contains the text.
inline bool has_note(const PdnEntry& e, const std::string& text) {
    for (const std::string& n : e.notes) {
        if (n.find(text) != std::string::npos) {
            return true;
        }
    }
    return false;
}

}  // namespace papan::core::test
