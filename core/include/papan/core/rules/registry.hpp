// The variant table: one constexpr RuleSet row per variant, the single source of variant
// metadata for the move generator, the notation code, the engine, the server and the client.
// Each row cites the rule it encodes (docs/rules.md, with the rule book of each variant; where
// it is silent, the governing body's rules). Adding a variant = a row here, an instantiation file
// (core/src/movegen_<variant>.cpp) and a test file.
#pragma once

#include <papan/core/rules/rule_set.hpp>

#include <array>
#include <optional>
#include <span>
#include <string_view>

namespace papan::core {

namespace detail {

// Defaults live in RuleSet; each row states its differences.
[[nodiscard]] constexpr std::array<RuleSet, kVariantCount> make_variant_table() {
    std::array<RuleSet, kVariantCount> t{};

    {  // American / English checkers: WCDF rules; Papan's draw limits (docs/rules.md).
        RuleSet& r              = t[static_cast<std::size_t>(VariantId::American)];
        r.id                    = VariantId::American;
        r.key                   = "american";
        r.name                  = "American checkers";
        r.game_type             = "21,B,8,8,N1,0";
        r.game_type_number      = 21;
        r.topology              = Topology::Diagonal8;
        r.first_to_move         = Color::Black;  // Black (dark) moves first (WCDF, ACF)
        r.start_fen             = "B:W21-32:B1-12";
        r.man_captures          = ManDirections::Forward;             // men capture forward only
        r.king_range            = KingRange::Short;                   // kings move one square
        r.precedence            = CapturePrecedence::Free;            // no majority rule
        r.mid_capture_promotion = MidCapturePromotion::CrownAndStop;  // crowning ends the move
        // Removal timing is equivalent with short kings (docs/rules.md, note E); tournament
        // wording.
        r.removal                     = CapturedRemoval::AtEndOfMove;
        r.optional_capture_house_rule = true;
        r.draw = {NoProgressRule::NoCaptureNoManMove, 40, 400, EndgameDrawRule::None};
    }
    {  // International draughts 10x10: FMJD rules (docs/rules.md).
        RuleSet& r         = t[static_cast<std::size_t>(VariantId::International)];
        r.id               = VariantId::International;
        r.key              = "international";
        r.name             = "International draughts";
        r.game_type        = "20,W,10,10,N2,0";
        r.game_type_number = 20;
        r.topology         = Topology::Diagonal10;
        r.start_fen        = "W:W31-50:B1-20";
        r.men_per_side     = 20;
        r.draw = {NoProgressRule::KingsOnlyNoCapture, 25, 0, EndgameDrawRule::International};
    }
    {  // Brazilian draughts: International rules on 8x8.
        RuleSet& r                    = t[static_cast<std::size_t>(VariantId::Brazilian)];
        r.id                          = VariantId::Brazilian;
        r.key                         = "brazilian";
        r.name                        = "Brazilian draughts";
        r.game_type                   = "26,W,8,8,A0,0";
        r.game_type_number            = 26;
        r.topology                    = Topology::Diagonal8;
        r.notation                    = NotationStyle::Algebraic;
        r.start_fen                   = "W:W21-32:B1-12";
        r.optional_capture_house_rule = true;
        r.draw = {NoProgressRule::NoCaptureNoCrowning, 40, 0, EndgameDrawRule::None};
    }
    {  // Russian draughts (shashki): free choice, crowned mid-capture and continues as a king.
        RuleSet& r                    = t[static_cast<std::size_t>(VariantId::Russian)];
        r.id                          = VariantId::Russian;
        r.key                         = "russian";
        r.name                        = "Russian draughts";
        r.game_type                   = "25,W,8,8,A0,0";
        r.game_type_number            = 25;
        r.topology                    = Topology::Diagonal8;
        r.notation                    = NotationStyle::Algebraic;
        r.capture_separator           = ':';
        r.start_fen                   = "W:W21-32:B1-12";
        r.precedence                  = CapturePrecedence::Free;
        r.mid_capture_promotion       = MidCapturePromotion::CrownAndContinue;
        r.optional_capture_house_rule = true;
        r.draw = {NoProgressRule::NoCaptureNoCrowning, 40, 0, EndgameDrawRule::None};
    }
    {  // Pool checkers (APCA): like Russian, but no crowning in passing; Black moves first.
        RuleSet& r                    = t[static_cast<std::size_t>(VariantId::Pool)];
        r.id                          = VariantId::Pool;
        r.key                         = "pool";
        r.name                        = "Pool checkers";
        r.game_type                   = "23,B,8,8,N1,0";
        r.game_type_number            = 23;
        r.topology                    = Topology::Diagonal8;
        r.notation                    = NotationStyle::Algebraic;
        r.first_to_move               = Color::Black;  // APCA rule 7
        r.start_fen                   = "B:W21-32:B1-12";
        r.precedence                  = CapturePrecedence::Free;
        r.optional_capture_house_rule = true;
        r.draw = {NoProgressRule::NoCaptureNoCrowning, 40, 0, EndgameDrawRule::None};
    }
    {  // Spanish draughts: mirrored board, men forward only, most pieces then most kings.
        RuleSet& r                    = t[static_cast<std::size_t>(VariantId::Spanish)];
        r.id                          = VariantId::Spanish;
        r.key                         = "spanish";
        r.name                        = "Spanish draughts";
        r.game_type                   = "24,W,8,8,N1,1";
        r.game_type_number            = 24;
        r.topology                    = Topology::Diagonal8;
        r.numbering                   = Numbering::Spanish;
        r.start_fen                   = "W:W1-12:B21-32";
        r.man_captures                = ManDirections::Forward;
        r.precedence                  = CapturePrecedence::MajorityThenKings;
        r.mid_capture_promotion       = MidCapturePromotion::CrownAndStop;
        r.optional_capture_house_rule = true;
        r.draw = {NoProgressRule::NoCaptureNoCrowning, 40, 0, EndgameDrawRule::None};
    }
    {  // Italian draughts: mirrored board, short kings, men may not capture kings, priorities.
        RuleSet& r                    = t[static_cast<std::size_t>(VariantId::Italian)];
        r.id                          = VariantId::Italian;
        r.key                         = "italian";
        r.name                        = "Italian draughts";
        r.game_type                   = "22,W,8,8,N2,1";
        r.game_type_number            = 22;
        r.topology                    = Topology::Diagonal8;
        r.numbering                   = Numbering::Italian;
        r.start_fen                   = "W:W21-32:B1-12";
        r.man_captures                = ManDirections::Forward;
        r.man_captures_king           = false;
        r.king_range                  = KingRange::Short;
        r.precedence                  = CapturePrecedence::Italian;
        r.mid_capture_promotion       = MidCapturePromotion::CrownAndStop;
        r.optional_capture_house_rule = true;
        r.draw = {NoProgressRule::NoCaptureNoCrowning, 40, 0, EndgameDrawRule::None};
    }
    {  // Czech draughts: men forward only, flying kings, a king must capture if it can.
        RuleSet& r                    = t[static_cast<std::size_t>(VariantId::Czech)];
        r.id                          = VariantId::Czech;
        r.key                         = "czech";
        r.name                        = "Czech draughts";
        r.game_type                   = "29,W,8,8,A0,0";
        r.game_type_number            = 29;
        r.topology                    = Topology::Diagonal8;
        r.notation                    = NotationStyle::Algebraic;
        r.start_fen                   = "W:W21-32:B1-12";
        r.man_captures                = ManDirections::Forward;
        r.precedence                  = CapturePrecedence::KingsFirst;
        r.mid_capture_promotion       = MidCapturePromotion::CrownAndStop;
        r.optional_capture_house_rule = true;
        r.draw = {NoProgressRule::NoCaptureNoCrowning, 40, 0, EndgameDrawRule::None};
    }
    {  // Thai draughts (mak-hot): 8 men each, king lands right behind, removal at once.
        RuleSet& r = t[static_cast<std::size_t>(VariantId::Thai)];
        r.id       = VariantId::Thai;
        r.key      = "thai";
        r.name     = "Thai draughts";
        r.game_type =
            "31,W,8,8,N2,0";  // PDN lists 31 with B to start; Papan lets White (on 25-32) start
        r.game_type_number            = 31;
        r.topology                    = Topology::Diagonal8;
        r.capture_separator           = '-';
        r.start_fen                   = "W:W25-32:B1-8";
        r.men_per_side                = 8;
        r.man_captures                = ManDirections::Forward;
        r.king_landing                = KingLanding::DirectlyBehind;
        r.removal                     = CapturedRemoval::Immediately;
        r.king_may_reverse            = true;
        r.precedence                  = CapturePrecedence::Free;
        r.mid_capture_promotion       = MidCapturePromotion::CrownAndStop;
        r.optional_capture_house_rule = true;
        r.draw = {NoProgressRule::NoCaptureNoCrowning, 40, 0, EndgameDrawRule::None};
    }
    {  // Turkish dama: orthogonal, removal at once, no 180-degree turn, majority (docs/rules.md).
        RuleSet& r              = t[static_cast<std::size_t>(VariantId::Turkish)];
        r.id                    = VariantId::Turkish;
        r.key                   = "turkish";
        r.name                  = "Turkish draughts";
        r.game_type             = "30,W,8,8,A0,0";
        r.game_type_number      = 30;
        r.topology              = Topology::Orthogonal8;
        r.notation              = NotationStyle::Algebraic;
        r.start_fen             = "W:W9-24:B41-56";
        r.men_per_side          = 16;
        r.man_moves             = ManDirections::ForwardAndSideways;
        r.man_captures          = ManDirections::ForwardAndSideways;
        r.removal               = CapturedRemoval::Immediately;
        r.king_may_reverse      = false;
        r.precedence            = CapturePrecedence::Majority;
        r.mid_capture_promotion = MidCapturePromotion::ContinueAsMan;
        r.draw = {NoProgressRule::NoCaptureNoManAdvance, 25, 0, EndgameDrawRule::Turkish};
    }
    return t;
}

}  // namespace detail

inline constexpr std::array<RuleSet, kVariantCount> kVariants = detail::make_variant_table();

template <VariantId V>
inline constexpr const RuleSet& rule_set = kVariants[static_cast<std::size_t>(V)];

[[nodiscard]] constexpr const RuleSet& rules(VariantId v) noexcept {
    return kVariants[static_cast<std::size_t>(v)];
}

// Looks a variant up by its key; "english" is an alias of "american". Case-insensitive.
[[nodiscard]] std::optional<VariantId> variant_from_key(std::string_view key) noexcept;

// Looks a variant up by a PDN GameType value ("21", or the full "21,B,8,8,N1,0").
[[nodiscard]] std::optional<VariantId> variant_from_game_type(std::string_view game_type) noexcept;

[[nodiscard]] std::span<const RuleSet> all_variants() noexcept;

// Direction mask (bit d = direction d allowed) for a colour's men.
[[nodiscard]] constexpr unsigned man_direction_mask(ManDirections m, Topology t, Color c) noexcept {
    const bool white = c == Color::White;
    if (t == Topology::Orthogonal8) {
        const unsigned fwd = white ? 0b0001U : 0b0010U;
        return m == ManDirections::ForwardAndSideways ? (fwd | 0b1100U) : fwd;
    }
    if (m == ManDirections::ForwardAndBackward) {
        return 0b1111U;
    }
    return white ? 0b0101U : 0b1010U;
}

// Consistency checks over the table.
namespace detail {
[[nodiscard]] constexpr bool table_is_consistent() {
    for (std::size_t i = 0; i < kVariants.size(); ++i) {
        const RuleSet& r = kVariants[i];
        if (static_cast<std::size_t>(r.id) != i) {
            return false;
        }
        const bool orth = r.topology == Topology::Orthogonal8;
        if (orth != (r.man_moves == ManDirections::ForwardAndSideways)) {
            return false;  // sideways men only on the orthogonal board and vice versa
        }
        if (r.king_may_reverse && r.removal != CapturedRemoval::Immediately) {
            return false;  // reversing over a dead piece is impossible when it stays
        }
        if (r.king_landing == KingLanding::DirectlyBehind && r.king_range != KingRange::Flying) {
            return false;
        }
        if (r.optional_capture_house_rule && orth) {
            return false;  // the house rule is for 8x8 diagonal variants (docs/rules.md)
        }
    }
    return true;
}
}  // namespace detail

static_assert(detail::table_is_consistent());

}  // namespace papan::core
