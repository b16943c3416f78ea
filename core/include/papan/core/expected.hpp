// Expected<T>: a value or an error message. Invalid input (a FEN, a PDN file, a move text) is
// never an assertion or an exception in the core: the caller gets the error text.
#pragma once

#include <optional>
#include <string>
#include <utility>

namespace papan::core {

struct Error {
    std::string message;
};

template <class T>
class Expected {
public:
    Expected(T value) : value_(std::move(value)) {}  // NOLINT(google-explicit-constructor)

    Expected(Error error) : error_(std::move(error.message)) {}  // NOLINT

    [[nodiscard]] bool ok() const noexcept { return value_.has_value(); }

    explicit operator bool() const noexcept { return ok(); }

    [[nodiscard]] const T& value() const& { return *value_; }

    [[nodiscard]] T& value() & { return *value_; }

    [[nodiscard]] T&& value() && { return std::move(*value_); }

    [[nodiscard]] const T& operator*() const& { return *value_; }

    [[nodiscard]] const T* operator->() const { return &*value_; }

    [[nodiscard]] const std::string& error() const noexcept { return error_; }

private:
    std::optional<T> value_;
    std::string error_;
};

}  // namespace papan::core
