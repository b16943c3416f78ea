// JsonOut: a small streaming JSON writer for the bindings' answers (objects, arrays, strings,
// numbers, booleans, null). The browser build has no JSON library (Debian's nlohmann-json is a
// system header the emscripten sysroot does not see), and the answers are small and flat.
// Commas are placed by the writer; the caller only opens, fills and closes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace papan::wasm {

class JsonOut {
public:
    JsonOut& begin_object() {
        value_prefix();
        out_ += '{';
        first_.push_back(true);
        return *this;
    }

    JsonOut& end_object() {
        out_ += '}';
        first_.pop_back();
        return *this;
    }

    JsonOut& begin_array() {
        value_prefix();
        out_ += '[';
        first_.push_back(true);
        return *this;
    }

    JsonOut& end_array() {
        out_ += ']';
        first_.pop_back();
        return *this;
    }

    // The key of the next value inside an object.
    JsonOut& key(std::string_view k) {
        separate();
        write_string(k);
        out_ += ':';
        after_key_ = true;
        return *this;
    }

    JsonOut& value(std::string_view s) {
        value_prefix();
        write_string(s);
        return *this;
    }

    JsonOut& value(const char* s) { return value(std::string_view(s)); }

    JsonOut& value(const std::string& s) { return value(std::string_view(s)); }

    JsonOut& value(bool b) {
        value_prefix();
        out_ += b ? "true" : "false";
        return *this;
    }

    JsonOut& value(int n) { return number(std::to_string(n)); }

    JsonOut& value(std::uint64_t n) { return number(std::to_string(n)); }

    JsonOut& value(double d);

    JsonOut& null() { return number("null"); }

    JsonOut& value(const std::vector<int>& list) {
        begin_array();
        for (int n : list) {
            value(n);
        }
        return end_array();
    }

    JsonOut& value(const std::vector<std::string>& list) {
        begin_array();
        for (const auto& s : list) {
            value(s);
        }
        return end_array();
    }

    template <typename T>
    JsonOut& field(std::string_view k, const T& v) {
        key(k);
        return value(v);
    }

    [[nodiscard]] const std::string& str() const noexcept { return out_; }

private:
    JsonOut& number(const std::string& text) {
        value_prefix();
        out_ += text;
        return *this;
    }

    // A comma before every element of an array or object but the first.
    void separate() {
        if (first_.empty()) {
            return;
        }
        if (!first_.back()) {
            out_ += ',';
        }
        first_.back() = false;
    }

    void value_prefix() {
        if (after_key_) {
            after_key_ = false;
            return;
        }
        separate();
    }

    void write_string(std::string_view s);

    std::string out_;
    std::vector<bool> first_;
    bool after_key_ = false;
};

}  // namespace papan::wasm
