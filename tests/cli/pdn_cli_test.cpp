// `papan pdn check|convert`, run as the real binary: exit codes, one line per game with the
// variant and what settled it, one clear "papan: error: ..." line per problem naming file, game
// and move, notes for what was read leniently, UTF-8 output whatever the file's encoding, bad
// games left out of a conversion, and no crash on bad input.
#include <papan/core/notation/encoding.hpp>
#include <papan/core/notation/pdn.hpp>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

namespace fs = std::filesystem;

struct RunResult {
    int exit_code  = -1;
    bool signalled = false;
    std::string out;
    std::string err;
};

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// Single-quoted for /bin/sh (char by char: GCC 12 warns falsely on string concatenation).
std::string quote(const std::string& s) {
    std::string q;
    q.reserve(s.size() + 8);
    q.push_back('\'');
    for (const char c : s) {
        if (c == '\'') {
            for (const char e : {'\'', '\\', '\'', '\''}) {
                q.push_back(e);
            }
        } else {
            q.push_back(c);
        }
    }
    q.push_back('\'');
    return q;
}

class PdnCli : public ::testing::Test {
protected:
    void SetUp() override {
        std::string tmpl = (fs::temp_directory_path() / "papan-pdn-cli-XXXXXX").string();
        std::vector<char> buf(tmpl.begin(), tmpl.end());
        buf.push_back('\0');
        ASSERT_NE(mkdtemp(buf.data()), nullptr);
        dir_ = buf.data();
    }

    void TearDown() override {
        std::error_code ec;
        fs::remove_all(dir_, ec);
    }

    fs::path write(const std::string& name, const std::string& text) const {
        const fs::path p = dir_ / name;
        std::ofstream(p, std::ios::binary) << text;
        return p;
    }

    RunResult run(const std::vector<std::string>& args) const {
        std::string cmd = quote(PAPAN_BINARY);
        for (const auto& a : args) {
            cmd.push_back(' ');
            cmd.append(quote(a));
        }
        const fs::path out = dir_ / "stdout.txt";
        const fs::path err = dir_ / "stderr.txt";
        cmd.append(" >");
        cmd.append(quote(out.string()));
        cmd.append(" 2>");
        cmd.append(quote(err.string()));
        cmd.append(" </dev/null");
        const int status = std::system(cmd.c_str());
        RunResult r;
        if (WIFEXITED(status)) {
            r.exit_code = WEXITSTATUS(status);
        } else {
            r.signalled = true;
        }
        r.out = slurp(out);
        r.err = slurp(err);
        return r;
    }

    static std::string data(const std::string& name) {
        return std::string(PAPAN_TEST_DATA_DIR) + "/pdn/" + name;
    }

    fs::path dir_;
};

std::vector<std::string> lines_of(const std::string& s) {
    std::vector<std::string> out;
    std::istringstream in(s);
    std::string line;
    while (std::getline(in, line)) {
        out.push_back(line);
    }
    return out;
}

const std::string kBadGameTwo = R"([Event "one"]
[GameType "20"]
1. 32-28 19-23 2. 28x19 14x23 2-0

[Event "two"]
[GameType "20"]
1. 32-28 19-23 2. 28x19 14x23 3. 37-32 23x14 1-1

[Event "three"]
1. 33-28 *
)";

TEST_F(PdnCli, CheckRealFilesOneLinePerGame) {
    RunResult r = run({"pdn", "check", data("international.pdn")});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    auto lines = lines_of(r.out);
    ASSERT_EQ(lines.size(), 5U) << r.out;
    for (const auto& l : lines) {
        EXPECT_NE(l.find(": ok ("), std::string::npos) << l;
    }
    EXPECT_NE(
        lines[0].find("international.pdn: game 1: ok (international by GameType, 80 moves, 1-1)"),
        std::string::npos)
        << lines[0];

    r = run({"pdn", "check", "--variant", "english", data("english.pdn")});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    lines = lines_of(r.out);
    ASSERT_EQ(lines.size(), 5U) << r.out;
    EXPECT_NE(lines[0].find("game 1: ok (american by --variant, 44 moves, 0-1)"), std::string::npos)
        << lines[0];

    r = run({"pdn", "check", "-v", "russian", data("russian.pdn")});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(lines_of(r.out).size(), 3U) << r.out;
    EXPECT_TRUE(r.err.empty()) << r.err;
}

TEST_F(PdnCli, CheckReportsEveryBadGameAndFails) {
    const fs::path bad = write("bad.pdn", kBadGameTwo);
    const RunResult r  = run({"pdn", "check", bad.string(), data("international.pdn")});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_FALSE(r.signalled);
    std::vector<std::string> err;
    for (const auto& l : lines_of(r.err)) {
        if (l.rfind("papan: note: ", 0) != 0) {
            err.push_back(l);  // notes (international.pdn game 4's result) aside
        }
    }
    ASSERT_EQ(err.size(), 1U) << r.err;
    EXPECT_EQ(err[0].rfind("papan: error: ", 0), 0U) << err[0];
    EXPECT_NE(err[0].find("bad.pdn: game 2, move 3 (black): illegal move '23x14'"),
              std::string::npos)
        << err[0];
    // Games 1 and 3 of the bad file and the five good games are still listed.
    EXPECT_EQ(lines_of(r.out).size(), 7U) << r.out;
}

TEST_F(PdnCli, CheckJson) {
    const fs::path bad = write("bad.pdn", kBadGameTwo);
    const RunResult r =
        run({"pdn", "check", "--json", data("english.pdn"), bad.string(), "-v", "american"});
    EXPECT_EQ(r.exit_code, 1);
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_FALSE(j["ok"].get<bool>());
    ASSERT_EQ(j["files"].size(), 2U);
    EXPECT_TRUE(j["files"][0]["ok"].get<bool>());
    ASSERT_EQ(j["files"][0]["games"].size(), 5U);
    EXPECT_EQ(j["files"][0]["games"][1]["final_fen"],
              "B:W17,18,19,20,21,22,23,25,28,29:B1,3,5,6,7,9,10,11,12,14");
    EXPECT_EQ(j["files"][0]["games"][0]["result"], "0-1");
    const auto& games = j["files"][1]["games"];
    ASSERT_EQ(games.size(), 3U);
    EXPECT_TRUE(games[0]["ok"].get<bool>());
    EXPECT_FALSE(games[1]["ok"].get<bool>());
    EXPECT_NE(games[1]["error"].get<std::string>().find("game 2, move 3"), std::string::npos);
}

TEST_F(PdnCli, UnreadableFilesAndBadOptions) {
    RunResult r = run({"pdn", "check", (dir_ / "missing.pdn").string()});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("papan: error: cannot read"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("missing.pdn"), std::string::npos) << r.err;

    r = run({"pdn", "check", dir_.string()});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("directory"), std::string::npos) << r.err;

    r = run({"pdn", "check", "--variant", "chess", data("international.pdn")});
    EXPECT_NE(r.exit_code, 0);
    EXPECT_NE(r.err.find("unknown variant 'chess'"), std::string::npos) << r.err;

    r = run({"pdn", "convert", data("international.pdn"), "--to", "sgf"});
    EXPECT_NE(r.exit_code, 0);
    EXPECT_NE(r.err.find("papan: error:"), std::string::npos) << r.err;

    const fs::path empty = write("empty.pdn", "% no games here\n");
    r                    = run({"pdn", "check", empty.string()});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("no games"), std::string::npos) << r.err;
}

TEST_F(PdnCli, GarbageNeverCrashes) {
    std::string junk;
    for (int i = 0; i < 4096; ++i) {
        junk += static_cast<char>((i * 131 + 7) % 256);
    }
    const std::vector<std::string> inputs = {junk,
                                             "{",
                                             "(",
                                             "[",
                                             "[Event",
                                             "/",
                                             "]]]]",
                                             "1.",
                                             "1... *",
                                             "\xEF\xBB\xBF",
                                             std::string(10000, '('),
                                             "[GameType \"20\"]\n" + std::string(5000, '{') + "}"};
    int n                                 = 0;
    for (const auto& text : inputs) {
        const fs::path p = write("junk" + std::to_string(n++) + ".pdn", text);
        for (const char* sub : {"check", "convert"}) {
            const RunResult r = run({"pdn", sub, p.string()});
            EXPECT_FALSE(r.signalled) << sub << " " << p;
            EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << sub << " " << p << r.err;
            if (r.exit_code != 0) {
                EXPECT_NE(r.err.find("papan: error:"), std::string::npos) << r.err;
            }
        }
    }
}

TEST_F(PdnCli, ConvertToPdnRoundTrips) {
    const fs::path out = dir_ / "out.pdn";
    RunResult r        = run({"pdn",
                              "convert",
                              data("english.pdn"),
                              "-v",
                              "english",
                              "--normalise",
                              "-o",
                              out.string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(r.out.empty());
    const std::string written = slurp(out);
    EXPECT_EQ(written.rfind("[Event \"Manchester 1841\"]\n[Site \"Manchester\"]\n[Date "
                            "\"1841.??.??\"]\n",
                            0),
              0U)
        << written;
    EXPECT_NE(written.find("[GameType \"21,B,8,8,N1,0\"]"), std::string::npos);
    // Strict output reads back with no default variant needed (GameType is written).
    const auto again = papan::core::read_pdn(written, papan::core::VariantId::International);
    ASSERT_TRUE(again.ok()) << again.error();
    const auto orig =
        papan::core::read_pdn(slurp(data("english.pdn")), papan::core::VariantId::American);
    ASSERT_TRUE(orig.ok()) << orig.error();
    ASSERT_EQ(again->size(), orig->size());
    for (std::size_t i = 0; i < orig->size(); ++i) {
        EXPECT_EQ((*again)[i].final_position(), (*orig)[i].final_position());
        EXPECT_EQ((*again)[i].moves.size(), (*orig)[i].moves.size());
    }
    // Converting the converted file changes nothing.
    r = run({"pdn", "convert", out.string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, written);
    for (const auto& line : lines_of(written)) {
        EXPECT_LE(line.size(), 80U) << line;
    }
}

TEST_F(PdnCli, ConvertToFen) {
    const RunResult r =
        run({"pdn", "convert", data("russian.pdn"), "--variant", "russian", "--to", "fen"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto lines = lines_of(r.out);
    // Per game: a header, the start, one FEN per move (61 + 69 + 58 moves).
    ASSERT_EQ(lines.size(), 3U * 2U + 61U + 69U + 58U);
    EXPECT_EQ(lines[0].rfind("# game 1", 0), 0U) << lines[0];
    EXPECT_EQ(lines[1],
              "# start W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12");
    EXPECT_EQ(lines[2], "B:W18,21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12");
    EXPECT_EQ(lines[2U + 61U].rfind("# game 2", 0), 0U) << lines[2U + 61U];
}

TEST_F(PdnCli, ConvertStrictWritesNothingWhenAGameIsBad) {
    const fs::path bad = write("bad.pdn", kBadGameTwo);
    const RunResult r  = run({"pdn", "convert", bad.string(), "--strict"});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_NE(r.err.find("papan: error: " + bad.string() + ": game 2, move 3 (black)"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("1 of 3 games are bad: nothing written (--strict)"), std::string::npos)
        << r.err;
}

std::vector<std::string> error_lines(const std::string& err) {
    std::vector<std::string> out;
    for (const auto& l : lines_of(err)) {
        if (l.rfind("papan: error: ", 0) == 0) {
            out.push_back(l);
        }
    }
    return out;
}

TEST_F(PdnCli, CheckFindsTheVariantOfGamesWithoutGameType) {
    RunResult r = run({"pdn", "check", data("english.pdn"), data("checkers-no-gametype.pdn")});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const auto lines = lines_of(r.out);
    ASSERT_EQ(lines.size(), 9U) << r.out;
    EXPECT_NE(lines[0].find("english.pdn: game 1: ok (american by moves, 44 moves, 0-1)"),
              std::string::npos)
        << lines[0];
    EXPECT_NE(lines[1].find("game 2: ok (american by file, 22 moves, 0-1)"), std::string::npos)
        << lines[1];
    EXPECT_NE(lines[4].find("game 5: ok (american by GameType, 48 moves, 1/2-1/2)"),
              std::string::npos)
        << lines[4];
    for (const auto& l : lines) {
        EXPECT_NE(l.find(": ok (american by "), std::string::npos) << l;
    }

    r = run({"pdn", "check", "--json", data("setup-international.pdn"), data("russian.pdn")});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["files"][0]["games"][0]["variant"], "international");
    EXPECT_EQ(j["files"][0]["games"][0]["variant_by"], "setup");
    EXPECT_EQ(j["files"][1]["games"][0]["variant"], "russian");
    EXPECT_EQ(j["files"][1]["games"][0]["variant_by"], "notation");
}

TEST_F(PdnCli, CheckRefusesToGuessBetweenVariantsThatFitEqually) {
    RunResult r = run({"pdn", "check", data("variant-tie.pdn")});
    EXPECT_EQ(r.exit_code, 1);
    const auto err = error_lines(r.err);
    ASSERT_EQ(err.size(), 1U) << r.err;
    EXPECT_NE(err[0].find("variant-tie.pdn: game 1: no GameType tag, and the moves fit American "
                          "checkers, Italian draughts and Thai draughts equally: name the "
                          "variant (--variant)"),
              std::string::npos)
        << err[0];
    r            = run({"pdn", "check", "--json", data("variant-tie.pdn")});
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["files"][0]["games"][0]["error_kind"], "variant_tie");
    EXPECT_EQ(j["files"][0]["games"][0]["tied_variants"],
              nlohmann::json::array({"american", "italian", "thai"}));

    r = run({"pdn", "check", "-v", "italian", data("variant-tie.pdn")});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("game 1: ok (italian by --variant, 2 moves, *)"), std::string::npos)
        << r.out;
}

TEST_F(PdnCli, ALatin1FileThroughJsonIsValidUtf8) {
    const RunResult r = run({"pdn", "check", "--json", data("latin1.pdn")});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(papan::core::is_valid_utf8(r.out));
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_TRUE(j["ok"].get<bool>());
    EXPECT_EQ(j["files"][0]["encoding"], "latin-1");
    EXPECT_EQ(j["files"][0]["games"][0]["white"], "Müller, Jörg");
    EXPECT_EQ(j["files"][0]["games"][0]["black"], "Gérard, Noël");
    EXPECT_NE(r.err.find("papan: note: " + data("latin1.pdn") +
                         ": not UTF-8: read as Latin-1 (ISO-8859-1)"),
              std::string::npos)
        << r.err;
}

TEST_F(PdnCli, EveryEncodingComesOutAsUtf8) {
    RunResult r = run(
        {"pdn", "check", "--json", data("cp1251.pdn"), data("cp1252.pdn"), data("utf8-bom.pdn")});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    ASSERT_TRUE(papan::core::is_valid_utf8(r.out));
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["files"][0]["encoding"], "cp1251");
    EXPECT_EQ(j["files"][0]["games"][0]["white"], "Блиндер Б.");
    EXPECT_EQ(j["files"][1]["encoding"], "cp1252");
    EXPECT_EQ(j["files"][1]["games"][0]["white"], "O’Neill, S.");
    EXPECT_EQ(j["files"][2]["encoding"], "utf-8-bom");

    // A converted file is UTF-8 too, and says so by reading back as UTF-8.
    const fs::path out = dir_ / "cyrillic.pdn";
    r                  = run({"pdn", "convert", data("cp1251.pdn"), "-o", out.string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string written = slurp(out);
    EXPECT_TRUE(papan::core::is_valid_utf8(written));
    EXPECT_NE(written.find("[White \"Блиндер Б.\"]"), std::string::npos) << written;

    // --encoding overrides the detection; an unknown one is an error.
    r = run({"pdn", "check", "--json", "--encoding", "cp1251", data("latin1.pdn")});
    EXPECT_EQ(nlohmann::json::parse(r.out)["files"][0]["encoding"], "cp1251");
    r = run({"pdn", "check", "--encoding", "ebcdic", data("latin1.pdn")});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("papan: error: unknown encoding 'ebcdic'"), std::string::npos) << r.err;

    // Bytes that are no text at all still give valid JSON.
    const fs::path junk = write("junk.pdn", "[Event \"\xff\xfe\x80\"]\n1. 32-28 \x81\x8d *\n");
    r                   = run({"pdn", "check", "--json", junk.string()});
    EXPECT_TRUE(papan::core::is_valid_utf8(r.out));
    EXPECT_TRUE(nlohmann::json::accept(r.out)) << r.out;
}

TEST_F(PdnCli, ConvertWritesEveryGoodGameAroundABadOne) {
    const fs::path out = dir_ / "out.pdn";
    RunResult r = run({"pdn", "convert", data("bad-game-in-middle.pdn"), "-o", out.string()});
    EXPECT_EQ(r.exit_code, 1);
    const auto err = error_lines(r.err);
    ASSERT_EQ(err.size(), 2U) << r.err;
    EXPECT_NE(err[0].find("bad-game-in-middle.pdn: game 2, move 3 (black): illegal move '23x14' "
                          "(International draughts, line 18)"),
              std::string::npos)
        << err[0];
    EXPECT_NE(err[1].find("bad-game-in-middle.pdn: 1 of 3 games left out (2 written)"),
              std::string::npos)
        << err[1];
    const std::string written = slurp(out);
    EXPECT_NE(written.find("[Event \"Round 1\"]"), std::string::npos) << written;
    EXPECT_EQ(written.find("[Event \"Round 2\"]"), std::string::npos) << written;
    EXPECT_NE(written.find("[Event \"Round 3\"]"), std::string::npos) << written;
    const auto back = papan::core::read_pdn(written, papan::core::VariantId::International);
    ASSERT_TRUE(back.ok()) << back.error();
    EXPECT_EQ(back->size(), 2U);

    // The FEN listing leaves it out too.
    r = run({"pdn", "convert", data("bad-game-in-middle.pdn"), "--to", "fen"});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.out.find("# game 1:"), std::string::npos);
    EXPECT_EQ(r.out.find("# game 2:"), std::string::npos);
    EXPECT_NE(r.out.find("# game 3:"), std::string::npos);

    // --strict: nothing.
    r = run({"pdn", "convert", data("bad-game-in-middle.pdn"), "--strict"});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST_F(PdnCli, ConvertKeepsTheFileAsReadUnlessNormalised) {
    RunResult r = run({"pdn", "convert", data("round-trip.pdn")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("[GameType \"20\"]"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("[Annotator \"\"]"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("(1... 18-23 2. 28x19 14x23 {also fine} (2..."), std::string::npos)
        << r.out;
    const std::string as_read = r.out;

    r = run({"pdn", "convert", data("round-trip.pdn"), "--normalise"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("[GameType \"20,W,10,10,N2,0\"]"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("[Annotator"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("(1... 18-23"), std::string::npos) << r.out;

    // Converting the converted file changes nothing.
    const fs::path once = write("once.pdn", as_read);
    r                   = run({"pdn", "convert", once.string()});
    EXPECT_EQ(r.out, as_read);

    // The Result tag and the terminator agree in the output.
    r = run({"pdn", "convert", data("result-mismatch.pdn")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("[Result \"1-1\"]"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.substr(r.out.size() - 5), " 1-1\n") << r.out;
    EXPECT_NE(r.err.find("papan: note: "), std::string::npos) << r.err;
}

TEST_F(PdnCli, LenientSetupReadsProblemPositions) {
    RunResult r = run({"pdn", "check", data("problem-setup.pdn")});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("white man on 2 stands on its promotion row"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("--lenient-setup reads it as a king"), std::string::npos) << r.err;

    r = run({"pdn", "check", "--lenient-setup", data("problem-setup.pdn")});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("game 1: ok (american by GameType, 3 moves, *)"), std::string::npos)
        << r.out;
    EXPECT_NE(r.err.find("read as a king (lenient setup)"), std::string::npos) << r.err;
}

TEST_F(PdnCli, DialectFilesReadWithNotes) {
    const RunResult r = run({"pdn",
                             "check",
                             data("junk-after-tags.pdn"),
                             data("dash-result.pdn"),
                             data("compact-moves.pdn"),
                             data("ambiguous-capture.pdn"),
                             data("lenient-tags.pdn"),
                             data("recovery.pdn")});
    EXPECT_EQ(r.exit_code, 1);  // ambiguous-capture game 2 and recovery game 2 are bad
    const auto err = error_lines(r.err);
    ASSERT_EQ(err.size(), 2U) << r.err;
    EXPECT_NE(err[0].find("ambiguous-capture.pdn: game 2, move 1 (black): ambiguous move"),
              std::string::npos)
        << err[0];
    EXPECT_NE(err[1].find("recovery.pdn: game 2, line 10: unterminated comment"), std::string::npos)
        << err[1];
    // 3 + 2 + 2 + 1 + 1 + 4 good games.
    EXPECT_EQ(lines_of(r.out).size(), 13U) << r.out;
    EXPECT_NE(r.err.find("junk-after-tags.pdn: game 1: line 3: skipped '\\r' before the move "
                         "text"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("ambiguous-capture.pdn: game 1: move 1 (black), line 9: '2x18' fits 2 "
                         "legal moves"),
              std::string::npos)
        << r.err;
}

}  // namespace
