#include "binary_io.hpp"

#include <cstdio>
#include <fstream>

namespace papan::tune {

bool read_file(const std::string& path,
               std::vector<unsigned char>& out,
               std::string& error,
               std::size_t max_bytes) {
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) {
        error = "cannot open " + path;
        return false;
    }
    const auto size = static_cast<std::streamoff>(in.tellg());
    if (size < 0 || static_cast<std::uint64_t>(size) > max_bytes) {
        error = path + ": file too large";
        return false;
    }
    out.resize(static_cast<std::size_t>(size));
    in.seekg(0);
    if (size > 0 && !in.read(reinterpret_cast<char*>(out.data()), size)) {  // NOLINT
        error = "cannot read " + path;
        return false;
    }
    return true;
}

bool write_file(const std::string& path,
                const std::vector<unsigned char>& bytes,
                std::string& error) {
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) {
            error = "cannot create " + tmp;
            return false;
        }
        out.write(reinterpret_cast<const char*>(bytes.data()),  // NOLINT
                  static_cast<std::streamsize>(bytes.size()));
        if (!out) {
            error = "cannot write " + tmp;
            return false;
        }
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        error = "cannot rename " + tmp + " to " + path;
        return false;
    }
    return true;
}

}  // namespace papan::tune
