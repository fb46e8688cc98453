// The entry point every fuzz target defines: libFuzzer calls it with each
// input it generates (the NUMACOLL_FUZZ build), replay_main.cpp with each
// file of a corpus (the ordinary build, as ctest regression tests).
//
// A target returns normally when the reader accepts the input or refuses it
// with a numacoll::Error (one line, as the CLI shows it). Anything else is a
// finding: a crash, a sanitizer report, another exception escaping, a hang
// past libFuzzer's -timeout, or a broken property (abort()).
#pragma once

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);
