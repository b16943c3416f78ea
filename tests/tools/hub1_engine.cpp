// A minimal Hub protocol version 1 engine for papan_selfplay's tests: it speaks v1 as Scan 2.0
// does (`hub` -> name/author/country/wait, `set`, `init` -> ready, `new`, `pos <w|b + 50>`,
// `time <ms>`, `go` -> info and `move`) and plays the first legal move of the position, after an
// `info` line of depth 7 and score 12. Every command it reads, and the folder it runs in, is
// appended to the log file named by its second argument (`hub1_engine hub LOG`).
#include <papan/core/movegen.hpp>
#include <papan/engine/hub.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>

int main(int argc, char** argv) {
    using namespace papan;
    if (argc < 3 || std::string(argv[1]) != "hub") {
        std::cerr << "usage: hub1_engine hub LOG\n";
        return 2;
    }
    std::ofstream log(argv[2], std::ios::app);
    log << "cwd " << std::filesystem::current_path().string() << '\n' << std::flush;
    std::optional<core::Position> pos;
    std::string line;
    while (std::getline(std::cin, line)) {
        log << line << '\n' << std::flush;
        const std::string command = line.substr(0, line.find(' '));
        if (command == "hub") {
            std::cout << "name Hub1 test engine\nauthor Papan\ncountry Nowhere\nwait" << std::endl;
        } else if (command == "init") {
            std::cout << "ready" << std::endl;
        } else if (command == "pos") {
            auto p = engine::parse_hub_position(core::VariantId::International, line.substr(4));
            if (!p || (line[4] != 'w' && line[4] != 'b')) {
                std::cout << "error bad position" << std::endl;
                pos.reset();
            } else {
                pos = *p;
            }
        } else if (command == "go") {
            core::MoveList moves;
            if (pos) {
                core::generate_moves(*pos, moves);
            }
            if (moves.size() == 0) {
                std::cout << "error no move" << std::endl;
                continue;
            }
            const std::string m = engine::hub_move(core::VariantId::International, moves[0]);
            std::cout << "info 7 7.0 12 1000 0.01 0.1 " << m << "\nmove " << m << std::endl;
        } else if (command == "quit") {
            return 0;
        }
    }
    return 0;
}
