// Tactics from published sources: shots where a sacrifice forces a capture that opens a
// multi-capture, at least ten per board family (8x8 diagonal, 10x10, Turkish).
//
// Unlike tactics_test.cpp (positions from Papan's own self-play), the diagonal-board positions
// here come from books and columns; the comment above each names the source and quotes its
// solution. Every position was re-checked with our move generator: the published solution line
// plays through legally, and the FEN here is in our numbering (spec/notation.md; the sources use
// the same numbers: 1-50 for International, 1-32 from Black's side for English checkers).
//
// Turkish: no published Turkish tactic with a machine-readable position was found in the
// sources available to us, so the Turkish positions are CONSTRUCTED (not published) from the
// motifs named in their comments; they are marked as such.
//
// The test checks, for each position: the FEN parses, each source move is legal; when the
// source's key is a sacrifice, the key is quiet, no capture was available before it, and the
// reply is a forced capture; and the engine at Level::Max with a modest depth plays the key
// (or one of the equivalent winning moves the source gives).
#include "tactic_check.hpp"

#include <papan/core/types.hpp>

#include <gtest/gtest.h>

#include <array>
#include <span>
#include <vector>

namespace papan::engine {
namespace {

using core::VariantId;

struct PublishedShot {
    VariantId variant;
    const char* fen;
    // The source's key move first, then any equivalent winning moves the source names.
    std::array<const char*, 2> keys;
    bool sacrifice = true;  // the key is quiet and the opponent's reply is a forced capture
    int depth      = 10;
};

// ---------------------------------------------------------------------------------------------
// 8x8 diagonal (English/American checkers; Black on 1-12 at the top, numbers as in the sources)
// ---------------------------------------------------------------------------------------------
const PublishedShot kDiagonal8Shots[] = {
    // The Checker Maven (Bob Newell), "Beginner's Corner: Seeing is Believing", 05/18/2013,
    // White to play and win: 22-17 13-22 29-25 22-29 30-25 29-22 21-17 22-13 6-1 13-6
    // 1-10-3-12-19-28 (a king's five-piece jump).
    {VariantId::American, "W:W6,9,21,22,29,30:B7,8,13,16,20,24", {"22-17", nullptr}},
    // The Checker Maven, "A Winter Stroke" (stroke problem), White to play and win:
    // 17-14 10x17 19-16 12x19 15-10 6x15 27-24 20x27 32x7 3x10 18x4.
    {VariantId::American,
     "W:W15,17,18,19,22,26,27,28,30,32:B1,3,6,8,9,10,11,12,13,20",
     {"17-14", nullptr}},
    // The Checker Maven, "Brush Stroke", 10/01/2011, White to play and win: 31-26 23-30 21-17
    // 13-22 11-8 4-11 15-8 24-15 10-19 1-10 19-16 12-19 20-16 3-12 18-23 19-26 2-6 12-19 6-31.
    // The column notes that KingsRow wins instead with 21-17 (also a sacrifice: 13x22).
    {VariantId::American,
     "W:WK2,6,K10,11,15,K18,19,20,21,31:B1,3,4,12,13,23,K24,25,27,K29",
     {"31-26", "21-17"}},
    // The Checker Maven, "Two-Fisted Checkers", 04/10/2010 (a stroke first published some 85
    // years earlier), Black to play and win: 2-7 11x2 15-11 8x15 18-23 27x18 20x27 32x23 26x10
    // 17x26 10-6 2x9 5x30 29-25 30x21.
    {VariantId::American, "B:W11,K8,K17,24,27,29,32:B2,5,K15,18,20,22,K26", {"2-7", nullptr}},
    // The Checker Maven, "Not Exactly a Speed Problem", 05/02/2015 (from Lloyd and Josh Gordon),
    // White to play and win: 24-19 31x24 15-10 24x6 2x25 (a 3-for-3 shot that wins the ending).
    {VariantId::American, "W:WK2,15,21,24,27,30,32:B1,3,12,14,20,22,K31", {"24-19", nullptr}},
    // W. F. Ryan, "Tricks Traps & Shots of the Checkerboard" (1950), "Thirkell's Folly" (as
    // republished by The Checker Maven), White to play and win: 22-18 15-22 31-26 22-31 24-20
    // 31-24 20-11 8-15 28-1 ("one of the most beautiful in-and-out shots").
    {VariantId::American,
     "W:W13,17,21,22,24,27,28,30,31:B2,4,5,6,8,9,12,15,16",
     {"22-18", nullptr}},
    // Ryan, "Tricks Traps & Shots", "A Scotsman's Scoop": 11-15 23-18 9-14 18-11 8-15 22-17 4-8
    // 26-23 7-11 23-19 5-9 30-26 9-13? and White wins by 19-16 12-19 27-23 13-22 23-7 2-11 25-2.
    {VariantId::American,
     "W:W17,19,21,24,25,26,27,28,29,31,32:B1,2,3,6,8,10,11,12,13,14,15",
     {"19-16", nullptr}},
    // Ryan, "Tricks Traps & Shots", "Denvir's Demolition" (credited to J. T. Denvir): 9-14 22-18
    // 5-9 25-22 11-16 24-19 8-11 27-24 16-20 31-27 11-16 29-25 4-8 19-15 10-19 24-15 7-11 22-17,
    // and Black wins by 16-19 17-10 19-24 28-19 9-14 18-9 11-18 23-14 6-31.
    {VariantId::American,
     "B:W15,17,18,21,23,25,26,27,28,30,32:B1,2,3,6,8,9,11,12,14,16,20",
     {"16-19", nullptr}},
    // Ryan, "Tricks Traps & Shots", "The Pied Piper's Special" (Fife opening): 11-15 23-19 9-14
    // 22-17 5-9 26-23 9-13 30-26 13-22 25-9 6-13 21-17? 13-22 26-17 2-6 29-25, and Black wins
    // by 15-18 23-14 6-9 14-5 10-15 19-10 7-30 ...
    {VariantId::American,
     "B:W17,19,23,24,25,27,28,31,32:B1,3,4,6,7,8,10,12,15",
     {"15-18", nullptr}},
    // R. Pask, "Key Themes", as given in The Checker Maven, "Finishing the Job", 04/08/2006,
    // Black to play and win: 12-16! 19-12 10-14 20-16 14-23 16-7 2-11 ...
    {VariantId::American, "B:W18,19,20,21,22,24,30,32:B2,3,9,10,11,12,13,15", {"12-16", nullptr}},
    // The Checker Maven, "All But One" (stroke problem), White to play and win: 26-23 17x26
    // 18-15 27x18 15-10 6x15 13x6 1x10 11-8 4x11 20-16 11x27 2-6 15x24 6x31.
    {VariantId::American,
     "W:WK2,11,13,18,19,20,22,24,26:B1,4,6,9,K17,K27,28,K32",
     {"26-23", nullptr},
     true,
     12},  // depth 10 plays 19-15 (scored -0.57); the full stroke needs 12 plies
};

// ---------------------------------------------------------------------------------------------
// 10x10 (International). Source: J.-P. Dubois, "Apprentissage des combinaisons" (2014), French
// workbook of combinations; positions as transcribed from its diagrams in the public
// "Draught Master" pedagogy fixtures (ids in brackets), solution as printed in the book. Each
// published line was replayed with our move generator and matches move for move.
// ---------------------------------------------------------------------------------------------
const PublishedShot kDiagonal10Shots[] = {
    // Dubois ch. 1 diag. 1 (p. 6) [BEG_CH03_001]: 26-21 (17x28) 43x3.
    {VariantId::International, "W:W26,31,32,43:B9,17,19,38", {"26-21", nullptr}},
    // Dubois ch. 1 diag. 2, "coup de mazette" [BEG_CH03_002]: 28-22 (17x28) 32x5.
    {VariantId::International, "W:W28,32,37:B10,17,19", {"28-22", nullptr}},
    // Dubois ch. 1 diag. 3 [BEG_CH03_003]: 33-29 (23x21) 26x10.
    {VariantId::International, "W:W25,26,27,33,38,39,40:B12,13,14,16,18,23,24", {"33-29", nullptr}},
    // Dubois ch. 1 diag. 4 [BEG_CH03_004]: 34-29 (23x21) 29x7.
    {VariantId::International, "W:W27,28,33,34,35,38,43:B12,13,14,16,19,23,24", {"34-29", nullptr}},
    // Dubois ch. 1 diag. 5 [BEG_CH03_005]: 37-31 (27x20) 25x5.
    {VariantId::International,
     "W:W24,25,33,37,41,42,43:B8,9,10,13,18,19,26,27",
     {"37-31", nullptr}},
    // Dubois ch. 1 diag. 6 [BEG_CH03_006]: 34-29 (25x32) 29x38.
    {VariantId::International,
     "W:W26,30,33,34,38,39,40,41:B12,13,14,16,19,22,24,25",
     {"34-29", nullptr}},
    // Dubois ch. 1 diag. 7 [BEG_CH03_007]: 33-29 (17x37) 29x18.
    {VariantId::International, "W:W22,30,32,33,35,47:B11,13,14,17,19,24", {"33-29", nullptr}},
    // Dubois ch. 1 diag. 8 [BEG_CH03_008]: 33-29 (24x31) 36x20.
    {VariantId::International,
     "W:W28,30,32,33,35,36,37,38,39:B11,12,13,14,17,19,21,23,24",
     {"33-29", nullptr}},
    // Dubois ch. 1 diag. 9 [BEG_CH03_009]: 44-39 (25x43) 48x10 (the book misprints the key as
    // 43-38; there is no white man on 43).
    {VariantId::International, "W:W30,32,35,44,48:B14,23,25,29,33", {"44-39", nullptr}},
    // Dubois ch. 1 diag. 10 [BEG_CH03_010]: 34-30 (23x32) 30x37.
    {VariantId::International,
     "W:W29,31,33,34,35,36,38,39:B12,13,16,18,20,22,23,24",
     {"34-30", nullptr}},
    // Dubois ch. 6, introductory example of the "collage" (p. 20) [BEG_CH04_001]:
    // 37-31 (26x17) 39-34 (21x43) 34x5.
    {VariantId::International,
     "W:W22,25,27,32,35,36,37,38,39,48,49:B8,9,10,13,15,16,18,19,21,26,29",
     {"37-31", nullptr}},
    // Dubois ch. 6 diag. 6 [BEG_CH04_004]: 32-27 (21x23) 34-29 (17x39) 29x16.
    {VariantId::International,
     "W:W22,26,28,32,33,34,36,38,43,48,50:B6,8,11,12,13,14,15,17,19,21,24",
     {"32-27", nullptr}},
    // Dubois ch. 6 diag. 7 [BEG_CH04_005]: 29-24 (22x33) 32-28 (19x39) 28x6.
    {VariantId::International,
     "W:W26,27,29,32,34,36,37,38,40,43,48:B11,12,13,14,15,16,18,19,20,22,23",
     {"29-24", nullptr}},
    // Dubois ch. 18 diag. 6, "coup de la trappe" [BEG_CH14_006]:
    // 31-27 (22x31) 26-21 (16x27) 37x26 (28x37) 42x4.
    {VariantId::International,
     "W:W25,26,30,31,32,34,35,37,38,39,42,48:B9,11,12,14,15,16,18,19,22,23,24,28",
     {"31-27", nullptr}},
    // Dubois ch. 19 diag. 10, coup de talon, game de Jongh - Bizot, Paris 1927 [BEG_CH15_010]:
    // 35-30 (24x33) 42-37 (33x42) 31-26 (42x31) 26x10.
    {VariantId::International,
     "W:W25,31,32,35,36,38,39,40,42,45,48,49:B3,6,9,11,12,13,14,16,21,23,24,29",
     {"35-30", nullptr}},
    // Dubois ch. 20 diag. 2, coup Philippe, game Dartelen - Ligthart, NED ch. 1938
    // [BEG_CH16_002]: 33-28 (22x24) 31x22 (18x27) 34-30 (25x34) 40x16.
    {VariantId::International,
     "W:W29,31,33,34,35,36,38,39,40,41,42,43,44,45,46,47,48,49:B1,2,3,4,6,8,9,10,11,12,13,14,15,"
     "18,20,22,23,25,27",
     {"33-28", nullptr}},
    // Dubois ch. 20 diag. 3, coup Philippe [BEG_CH16_003]:
    // 37-31 (26x28) 33x22 (18x27) 34-30 (25x34) 40x16.
    {VariantId::International,
     "W:W32,33,34,35,36,37,38,39,40,42,43,45,48:B3,6,8,11,12,13,15,18,19,23,24,25,26",
     {"37-31", nullptr}},
    // Dubois ch. 20 diag. 4, coup Philippe, game Davidov - Romanov, URS 1963 [BEG_CH16_004]:
    // 31-26 (21x23) 26-21 (16x27) 34-30 (25x34) 40x16.
    {VariantId::International,
     "W:W27,28,31,34,35,36,37,38,39,40,41,43,44,45,47,48,49:B1,2,3,5,6,8,9,10,11,12,13,15,16,19,"
     "21,24,25",
     {"31-26", nullptr}},
    // Dubois ch. 20 diag. 6, game Leijenaar - Romanskaia, junior Olympiad 2003 [BEG_CH16_006]:
    // 33-28 (22x24) 34-30 (25x34) 32-28 (23x43) 48x26.
    {VariantId::International,
     "W:W29,32,33,34,35,36,38,41,42,44,47,48,49,50:B1,2,3,4,6,12,13,15,18,21,22,23,25,27",
     {"33-28", nullptr}},
    // Dubois ch. 20 diag. 7, "coup de mazette" [BEG_CH16_007]:
    // 28-22 (17x28) 25-20 (14x34) 40x18 (13x31) 32x5.
    {VariantId::International,
     "W:W25,27,28,30,32,35,36,37,38,39,40,42,43,45,48:B2,3,6,7,9,10,12,13,14,16,17,19,23,24,26",
     {"28-22", nullptr}},
};

// ---------------------------------------------------------------------------------------------
// Turkish (squares 1-64, a1 = 1). CONSTRUCTED positions, not published ones (see the header).
// Motifs: the "good exchange" (iyi tas degisimi: give one piece to take more) of the Dama
// Akademisi beginners' guide "Turk Damasi baslangic duzeyi ogrenme ve oynama kilavuzu"
// (damaakademisi.com, section 18b), and the long-range king capture that may change direction
// between jumps (not by 180 degrees) and crosses squares freed by pieces it has already taken
// (rules as in Wikipedia, "Turkish draughts").
// ---------------------------------------------------------------------------------------------
const PublishedShot kTurkishShots[] = {
    // Constructed from the "good exchange" motif (Dama Akademisi guide): d4-d5 d6xd4 c4xg6
    // (c4xd4, e5, f6: one man for three).
    {VariantId::Turkish, "W:W9,16,26,27,28,35:B37,44,46,49,50,56", {"d4-d5", nullptr}},
    // Constructed from the same motif, sideways decoy: c5-d5 e5xc5 c4xc8 (two for one and a king).
    {VariantId::Turkish, "W:W9,16,19,27,35:B37,49,51,53,56", {"c5-d5", nullptr}},
    // Constructed from the long-range king capture (Wikipedia rules): b3-b4 b5xb3 and the king
    // on f3 takes b3, a6, b7 and e6 in one move (f3-a3-a7-e7, then down the e-file).
    {VariantId::Turkish, "W:W15,16,18,K22:B34,41,45,50,55,56", {"b3-b4", nullptr}},
    // Constructed from the long-range king capture: e3-e4 e5xe3 a3xb8 (e3, f5, c6, b7: the
    // king sweeps rank 3, turns up the f-file, along rank 6 and up the b-file).
    {VariantId::Turkish, "W:W15,16,K17,21,25:B37,38,43,50,55", {"e3-e4", nullptr}},
    // Colour-mirror of the first constructed position, Black to move: d5-d4 d3xd5 c5xg3.
    {VariantId::Turkish, "B:W9,10,16,20,22,29:B27,34,35,36,49,56", {"d5-d4", nullptr}},
    // Colour-mirror of the second constructed position, Black to move: c4-d4 e4xc4 c5xc1.
    {VariantId::Turkish, "B:W9,11,13,16,29:B27,35,43,49,56", {"c4-d4", nullptr}},
    // Colour-mirror of the third constructed position, Black to move: b6-b5 b4xb6 and the king
    // on f6 takes four.
    {VariantId::Turkish, "B:W10,15,16,17,21,26:B42,K46,55,56", {"b6-b5", nullptr}},
    // Constructed by a search over random small positions (kept only when a single quiet move is
    // captured by every reply and then answered by a longer capture), "good exchange" motif:
    // b4-b5 b6xb4 a4xe4 (b4, d4).
    {VariantId::Turkish, "W:W9,10,15,25,26:B28,31,42", {"b4-b5", nullptr}},
    // Constructed the same way: e4-f4 g4xe4 e3xc7 (e4, e6, d7).
    {VariantId::Turkish, "W:W13,21,24,29:B31,45,46,52", {"e4-f4", nullptr}},
    // Constructed the same way: b4-b5 c5xa5 (or b6xb4) a4xc8, three for one either way.
    {VariantId::Turkish, "W:W17,25,26,28,30:B35,42,45,47,51", {"b4-b5", nullptr}},
    // Constructed the same way: d6-e6 f6xd6 d5xb7 (d6, c7).
    {VariantId::Turkish, "W:W25,33,34,36,44:B28,29,46,51", {"d6-e6", nullptr}},
};

std::vector<test::Tactic> tactics(std::span<const PublishedShot> shots) {
    std::vector<test::Tactic> out;
    for (const PublishedShot& s : shots) {
        out.push_back({.variant   = s.variant,
                       .fen       = s.fen,
                       .keys      = {s.keys.begin(), s.keys.end()},
                       .sacrifice = s.sacrifice,
                       .depth     = s.depth});
    }
    return out;
}

TEST(EngineTacticsPublished, Diagonal8) {
    test::check_tactics(tactics(kDiagonal8Shots));
}

TEST(EngineTacticsPublished, Diagonal10) {
    test::check_tactics(tactics(kDiagonal10Shots));
}

TEST(EngineTacticsPublished, TurkishConstructed) {
    test::check_tactics(tactics(kTurkishShots));
}

}  // namespace
}  // namespace papan::engine
