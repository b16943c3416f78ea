// JsonWriter: JSON written straight into a caller's string, no document tree: the server's
// messages (api/wire_codec.cpp) and the browser build's answers (wasm/) are written with it.
// Commas are placed by the writer; the caller opens, fills and closes. Strings are escaped, and
// bytes that are not UTF-8 become U+FFFD (a text is ours, but a stored name from an older
// version might not be). Part of papan_wire: no dependency but the standard library.
#pragma once

#include <concepts>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace papan::server::wire {

class JsonWriter {
public:
    explicit JsonWriter(std::string& out) : out_(out) {}

    JsonWriter& begin_object() {
        before_value();
        out_ += '{';
        push();
        return *this;
    }

    JsonWriter& end_object() {
        out_ += '}';
        --depth_;
        return *this;
    }

    JsonWriter& begin_array() {
        before_value();
        out_ += '[';
        push();
        return *this;
    }

    JsonWriter& end_array() {
        out_ += ']';
        --depth_;
        return *this;
    }

    // The key of the next value inside an object.
    JsonWriter& key(std::string_view k) {
        separate();
        write_string(k);
        out_ += ':';
        after_key_ = true;
        return *this;
    }

    JsonWriter& value(std::string_view s) {
        before_value();
        write_string(s);
        return *this;
    }

    JsonWriter& value(const char* s) { return value(std::string_view(s)); }

    JsonWriter& value(const std::string& s) { return value(std::string_view(s)); }

    JsonWriter& value(bool b) {
        before_value();
        out_ += b ? "true" : "false";
        return *this;
    }

    template <std::integral T>

    requires(!std::same_as<T, bool> && !std::same_as<T, char>) JsonWriter& value(T n) {
        before_value();
        if constexpr (std::is_signed_v<T>) {
            write_int(static_cast<std::int64_t>(n));
        } else {
            write_uint(static_cast<std::uint64_t>(n));
        }
        return *this;
    }

    // A number as JavaScript reads it back; an integral value keeps a ".0" (as a time control's
    // seconds always did).
    JsonWriter& value(double d);

    JsonWriter& null() {
        before_value();
        out_ += "null";
        return *this;
    }

    JsonWriter& value(std::span<const int> list) {
        begin_array();
        for (const int n : list) {
            value(n);
        }
        return end_array();
    }

    JsonWriter& value(std::span<const std::string> list) {
        begin_array();
        for (const auto& t : list) {
            value(t);
        }
        return end_array();
    }

    // An already written JSON value, as it is.
    JsonWriter& raw(std::string_view json) {
        before_value();
        out_ += json;
        return *this;
    }

    template <typename T>
    JsonWriter& field(std::string_view k, const T& v) {
        key(k);
        return value(v);
    }

    JsonWriter& null_field(std::string_view k) {
        key(k);
        return null();
    }

    [[nodiscard]] std::string& out() noexcept { return out_; }

private:
    void push() {
        ++depth_;
        if (depth_ < 64) {
            first_ |= std::uint64_t{1} << depth_;
        }
    }

    // A comma before every element of an array or object but the first.
    void separate() {
        if (depth_ <= 0 || depth_ >= 64) {
            return;
        }
        const auto bit = std::uint64_t{1} << depth_;
        if ((first_ & bit) == 0) {
            out_ += ',';
        }
        first_ &= ~bit;
    }

    void before_value() {
        if (after_key_) {
            after_key_ = false;
            return;
        }
        separate();
    }

    void write_int(std::int64_t n);
    void write_uint(std::uint64_t n);
    void write_string(std::string_view s);

    std::string& out_;
    std::uint64_t first_ = 0;  // bit d: the container at depth d has no element yet
    int depth_           = 0;
    bool after_key_      = false;
};

}  // namespace papan::server::wire
