#include "json_out.hpp"

#include <cmath>
#include <cstdio>

namespace papan::wasm {

JsonOut& JsonOut::value(double d) {
    if (!std::isfinite(d)) {
        return null();
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", d);
    return number(buf);
}

void JsonOut::write_string(std::string_view s) {
    out_ += '"';
    for (const char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        switch (c) {
        case '"':
            out_ += "\\\"";
            break;
        case '\\':
            out_ += "\\\\";
            break;
        case '\n':
            out_ += "\\n";
            break;
        case '\r':
            out_ += "\\r";
            break;
        case '\t':
            out_ += "\\t";
            break;
        default:
            if (c < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
                out_ += buf;
            } else {
                out_ += ch;  // UTF-8 bytes pass through
            }
        }
    }
    out_ += '"';
}

}  // namespace papan::wasm
