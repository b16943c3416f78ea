// docs/architecture.md against the tree: what the doc states that a program can check.
//  - every repository path it names exists, every file a server folder's row names is in that
//    folder, and every function it places in a file (`name` (`path`)) is in that file;
//  - the include direction it states between the libraries (the first bold arrow line) and
//    between the server's folders (the arrow line after "Inside the server") holds for every
//    #include of the tree;
//  - no CMake file compiles or globs another layer's sources (tests and fuzz targets may add a
//    layer's private include folder, for white-box tests).
// The doc is parsed, not copied: change the layering and the doc together.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

const fs::path kRoot = PAPAN_SOURCE_DIR;

std::string read(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        out.push_back(line);
    }
    return out;
}

const std::string& doc() {
    static const std::string text = read(kRoot / "docs/architecture.md");
    return text;
}

// The top-level entries of the repository (folders and files), so a word like `core/src/x.cpp`
// or `Makefile` is recognised as a path and `a/b` in prose is not.
std::set<std::string> top_level_names() {
    std::set<std::string> names;
    for (const auto& e : fs::directory_iterator(kRoot)) {
        const std::string name = e.path().filename().string();
        if (name == "build" || name == "data" || name == "node_modules" || name == ".git") {
            continue;
        }
        names.insert(name);
    }
    return names;
}

// Words of the doc that name a repository path: a top-level name, alone with a slash or followed
// by more of the path. Placeholders (`*`, `<x>`, `{a,b}`, NNNN) are not paths.
std::vector<std::string> named_paths(const std::string& text) {
    const std::set<std::string> tops = top_level_names();
    static const std::regex word(R"([A-Za-z0-9_.][A-Za-z0-9_./*<>{},-]*)");
    std::vector<std::string> out;
    for (std::sregex_iterator it(text.begin(), text.end(), word), end; it != end; ++it) {
        std::string w = it->str();
        while (!w.empty() && (w.back() == '.' || w.back() == ','))
            w.pop_back();
        const auto slash      = w.find('/');
        const std::string top = w.substr(0, slash);
        if (!tops.count(top)) {
            continue;
        }
        if (slash == std::string::npos && top.find('.') == std::string::npos && top != "Makefile") {
            continue;  // a bare word such as "server" or "web" in prose
        }
        if (w.find_first_of("*<>{},") != std::string::npos || w.find("NNNN") != std::string::npos) {
            continue;
        }
        out.push_back(w);
    }
    return out;
}

// "**a → b → c**": the folders of an arrow line, in order.
std::vector<std::string> arrow_order(const std::string& line) {
    std::vector<std::string> order;
    const auto open  = line.find("**");
    const auto close = line.find("**", open + 2);
    if (open == std::string::npos || close == std::string::npos) {
        return order;
    }
    std::string inner       = line.substr(open + 2, close - open - 2);
    const std::string arrow = "→";
    std::size_t from        = 0;
    for (;;) {
        const auto at = inner.find(arrow, from);
        std::string part =
            inner.substr(from, at == std::string::npos ? std::string::npos : at - from);
        part.erase(std::remove(part.begin(), part.end(), ' '), part.end());
        part.erase(std::remove(part.begin(), part.end(), '`'), part.end());
        if (!part.empty() && part.back() == '/') {
            part.pop_back();
        }
        if (!part.empty()) {
            order.push_back(part);
        }
        if (at == std::string::npos) {
            break;
        }
        from = at + arrow.size();
    }
    return order;
}

// The arrow lines of the doc: the first is between the libraries, the one after "Inside the
// server" between the server's folders.
std::vector<std::string> library_order() {
    for (const auto& line : lines_of(doc())) {
        if (line.find("→") != std::string::npos && line.find("**") != std::string::npos) {
            return arrow_order(line);
        }
    }
    return {};
}

std::vector<std::string> server_order() {
    const auto lines = lines_of(doc());
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (lines[i].find("Inside the server") == std::string::npos) {
            continue;
        }
        for (std::size_t j = i; j < lines.size() && j < i + 3; ++j) {
            if (lines[j].find("→") != std::string::npos) {
                return arrow_order(lines[j]);
            }
        }
    }
    return {};
}

struct Include {
    fs::path file;
    int line;
    std::string target;  // what is between the quotes or the angle brackets
    bool quoted;
};

// Every #include of the C++ files under `dir` (recursively).
std::vector<Include> includes_under(const fs::path& dir) {
    std::vector<Include> out;
    for (const auto& e : fs::recursive_directory_iterator(dir)) {
        const auto ext = e.path().extension();
        if (!e.is_regular_file() || (ext != ".cpp" && ext != ".hpp" && ext != ".h")) {
            continue;
        }
        int n = 0;
        for (const auto& line : lines_of(read(e.path()))) {
            ++n;
            const auto hash = line.find_first_not_of(" \t");
            if (hash == std::string::npos || line.compare(hash, 8, "#include") != 0) {
                continue;
            }
            const auto open = line.find_first_of("\"<", hash + 8);
            if (open == std::string::npos) {
                continue;
            }
            const auto close = line.find(line[open] == '"' ? '"' : '>', open + 1);
            if (close == std::string::npos) {
                continue;
            }
            out.push_back(
                {e.path(), n, line.substr(open + 1, close - open - 1), line[open] == '"'});
        }
    }
    return out;
}

std::string where(const Include& inc) {
    return fs::relative(inc.file, kRoot).string() + ":" + std::to_string(inc.line) + ": #include " +
           inc.target;
}

std::ptrdiff_t index_of(const std::vector<std::string>& order, const std::string& name) {
    const auto it = std::find(order.begin(), order.end(), name);
    return it == order.end() ? -1 : it - order.begin();
}

TEST(ArchitectureDoc, EveryPathItNamesExists) {
    std::vector<std::string> missing;
    const auto paths = named_paths(doc());
    for (const auto& p : paths) {
        if (!fs::exists(kRoot / p)) {
            missing.push_back(p);
        }
    }
    EXPECT_GE(paths.size(), 40U) << "the doc's paths were not found: the scan is broken";
    EXPECT_TRUE(missing.empty()) << "named in docs/architecture.md but not in the tree: "
                                 << ::testing::PrintToString(missing);
}

// In a row of a table, a file name without a folder ("`edge.cpp`") is a file of the last folder
// the row named before it ("`server/src/api/`", "`engine/include/papan/engine/`").
TEST(ArchitectureDoc, TheFilesOfAFoldersRowAreInThatFolder) {
    static const std::regex quoted(R"(`([^`]+)`)");
    static const std::regex file_name(R"([A-Za-z0-9_]+\.(cpp|hpp))");
    std::vector<std::string> missing;
    int checked = 0;
    for (const auto& line : lines_of(doc())) {
        if (!line.starts_with("| `")) {
            continue;
        }
        std::string folder;
        for (std::sregex_iterator it(line.begin(), line.end(), quoted), end; it != end; ++it) {
            const std::string word = (*it)[1].str();
            if (word.ends_with("/") && fs::is_directory(kRoot / word)) {
                folder = word;
            } else if (!folder.empty() && std::regex_match(word, file_name)) {
                ++checked;
                if (!fs::exists(kRoot / folder / word)) {
                    missing.push_back(folder + word);
                }
            }
        }
    }
    EXPECT_GE(checked, 8) << "no folder row with file names found: the scan is broken";
    EXPECT_TRUE(missing.empty()) << ::testing::PrintToString(missing);
}

// "`Room::handle` (`server/src/game/room_commands.cpp`)": the function is in that file.
TEST(ArchitectureDoc, TheFunctionsItPlacesAreInTheirFiles) {
    static const std::regex placed(
        R"(`([A-Za-z_][A-Za-z0-9_:]*)(\(\))?` \(`([a-z_/]+\.(cpp|hpp))`)");
    std::vector<std::string> wrong;
    int checked             = 0;
    const std::string& text = doc();
    for (std::sregex_iterator it(text.begin(), text.end(), placed), end; it != end; ++it) {
        ++checked;
        const std::string name = (*it)[1].str();
        const std::string path = (*it)[3].str();
        // A namespace (`core::with_variant`) is opened around the definition, not written in it.
        const auto qualifier = name.find("::");
        const bool namespaced =
            qualifier != std::string::npos && std::islower(static_cast<unsigned char>(name[0]));
        const std::string written = namespaced ? name.substr(qualifier + 2) : name;
        if (read(kRoot / path).find(written) == std::string::npos) {
            wrong.push_back(name + " in " + path);
        }
    }
    EXPECT_GE(checked, 4) << "no `function` (`file`) found: the scan is broken";
    EXPECT_TRUE(wrong.empty()) << ::testing::PrintToString(wrong);
}

// Each library includes only its own headers and the public headers (<papan/LAYER/...>) of the
// libraries after it in the stated order; a quoted include never leaves the library's folder.
TEST(ArchitectureDoc, LibrariesIncludeOnlyTheLayersBelowThem) {
    const auto order = library_order();
    ASSERT_GE(order.size(), 3U) << "no \"**a → b → c**\" line of the libraries in the doc";
    std::vector<std::string> wrong;
    std::size_t scanned = 0;
    for (std::size_t i = 0; i < order.size(); ++i) {
        const fs::path dir = kRoot / order[i];
        ASSERT_TRUE(fs::is_directory(dir)) << order[i];
        for (const auto& inc : includes_under(dir)) {
            ++scanned;
            if (inc.quoted) {
                const fs::path resolved = fs::weakly_canonical(inc.file.parent_path() / inc.target);
                const auto rel = fs::relative(resolved, fs::weakly_canonical(dir)).string();
                if (inc.target.starts_with("../") && rel.starts_with("..")) {
                    wrong.push_back(where(inc));
                }
                continue;
            }
            if (!inc.target.starts_with("papan/")) {
                continue;  // the standard library, Boost, ...
            }
            const std::string layer = inc.target.substr(6, inc.target.find('/', 6) - 6);
            const auto at           = index_of(order, layer);
            if (at < 0) {
                // a header of a library the order does not name (papan/loadtest/...)
                wrong.push_back(where(inc));
            } else if (static_cast<std::size_t>(at) < i) {
                wrong.push_back(where(inc));
            }
        }
    }
    EXPECT_GT(scanned, 500U) << "too few includes: the scan is broken";
    EXPECT_TRUE(wrong.empty()) << "includes against the order " << ::testing::PrintToString(order)
                               << ": " << ::testing::PrintToString(wrong);
}

// Inside the server each folder includes its own files, support/ and the folders after it in
// the stated order; every folder of server/src is in the order (or is support/).
TEST(ArchitectureDoc, TheServersFoldersIncludeOnlyTheFoldersAfterThem) {
    const auto order = server_order();
    ASSERT_GE(order.size(), 3U) << "no \"**net → api → ...**\" line after \"Inside the server\"";
    const fs::path src = kRoot / "server/src";
    for (const auto& e : fs::directory_iterator(src)) {
        if (!e.is_directory()) {
            continue;
        }
        const std::string name = e.path().filename().string();
        EXPECT_TRUE(name == "support" || index_of(order, name) >= 0)
            << "server/src/" << name << "/ is not in the doc's order "
            << ::testing::PrintToString(order);
    }
    std::vector<std::string> wrong;
    std::size_t scanned = 0;
    for (const auto& e : fs::directory_iterator(src)) {
        if (!e.is_directory()) {
            continue;
        }
        const std::string from = e.path().filename().string();
        for (const auto& inc : includes_under(e.path())) {
            const auto slash = inc.target.find('/');
            if (!inc.quoted || slash == std::string::npos) {
                continue;
            }
            ++scanned;
            const std::string to = inc.target.substr(0, slash);
            if (to == from || (to == "support" && from != "support")) {
                continue;
            }
            if (from == "support" || index_of(order, to) < 0 ||
                index_of(order, to) < index_of(order, from)) {
                wrong.push_back(where(inc));
            }
        }
    }
    EXPECT_GT(scanned, 50U) << "too few includes: the scan is broken";
    EXPECT_TRUE(wrong.empty()) << "includes against the order " << ::testing::PrintToString(order)
                               << ": " << ::testing::PrintToString(wrong);
}

// No CMake file of one top-level folder compiles or globs the sources of another (a path to
// another folder's src/ or to its .cpp/.hpp files); tests/ and fuzz/ may add a private include
// folder.
TEST(ArchitectureDoc, NoCMakeFileBuildsAnotherLayersSources) {
    // the project's root, by any of its names, or a parent folder
    static const std::regex other(
        R"((\$\{(PROJECT_SOURCE_DIR|CMAKE_SOURCE_DIR|PAPAN_ROOT)\}|\.\.)/([a-z_]+)/([^\s")]*))");
    std::vector<std::string> wrong;
    int files = 0;
    for (auto it = fs::recursive_directory_iterator(kRoot);
         it != fs::recursive_directory_iterator();
         ++it) {
        const std::string name = it->path().filename().string();
        if (it->is_directory() &&
            (name == "build" || name == "node_modules" || name == ".git" || name == "data")) {
            it.disable_recursion_pending();
            continue;
        }
        if (!it->is_regular_file() ||
            (name != "CMakeLists.txt" && it->path().extension() != ".cmake")) {
            continue;
        }
        ++files;
        const auto rel        = fs::relative(it->path(), kRoot);
        const std::string own = rel.begin()->string();
        int n                 = 0;
        for (const auto& line : lines_of(read(it->path()))) {
            ++n;
            if ((own == "tests" || own == "fuzz") &&
                line.find("target_include_directories") != std::string::npos) {
                continue;
            }
            for (std::sregex_iterator m(line.begin(), line.end(), other), end; m != end; ++m) {
                const std::string top  = (*m)[3].str();
                const std::string rest = (*m)[4].str();
                if (top == own || !fs::is_directory(kRoot / top)) {
                    continue;
                }
                // a source file, or a glob or an include folder in its src/ (a generated
                // output folder such as wasm's into web/src/engine/generated is neither)
                const bool source_files = rest.find(".cpp") != std::string::npos ||
                                          rest.find(".hpp") != std::string::npos;
                const bool into_src = (rest == "src" || rest.starts_with("src/")) &&
                                      (line.find("GLOB") != std::string::npos ||
                                       line.find("include_directories") != std::string::npos);
                const bool sources = source_files || into_src;
                if (sources) {
                    wrong.push_back(rel.string() + ":" + std::to_string(n) + ": " + (*m)[0].str());
                }
            }
        }
    }
    EXPECT_GE(files, 8) << "too few CMake files found: the scan is broken";
    EXPECT_TRUE(wrong.empty()) << ::testing::PrintToString(wrong);
}

}  // namespace
