#pragma once
/// @file input.hpp
/// Parsing of hetscal-plan's inputs: lists of numbers (on the command line or in a file),
/// grid and panel shapes "PxQ", and the picture file name. Every function throws
/// hetscal::InvalidArgument with a message naming the bad value; nothing here prints.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/common/speeds.hpp"
#include "tools/plan/picture.hpp"

namespace hetscal::tools::plan {

/// What a list of numbers describes: relative speeds, or their inverse, cycle-times.
enum class ValueKind { Speeds, CycleTimes };

/// "speeds" or "cycle-times".
std::string to_string(ValueKind kind);

/// Splits `text` on commas and white space and converts every token to a double.
/// Values are not range-checked here (Speeds does it, naming the position).
/// @param what names the list in error messages (e.g. "--speeds").
/// @throws InvalidArgument if a token is not a number.
std::vector<double> parse_number_list(const std::string& text, const std::string& what);

/// The numbers of a processor file and what they are.
struct ProcessorFile {
  ValueKind kind;
  std::vector<double> values;
};

/// Reads a processor file: numbers separated by white space, commas or newlines; '#' starts
/// a comment that runs to the end of the line. The first token may be "speeds:" or
/// "cycle-times:" to say what the numbers are; otherwise `declared_kind` must say it.
/// @param path file to read.
/// @param declared_kind the kind given on the command line (--file-kind), if any.
/// Only a regular file of at most kMaxFileBytes is read (core/common/bounded_file.hpp).
/// @throws InvalidArgument if the file is not a regular file, is too big or cannot be read, a
///         token is not a number, the kind is unknown, or the file's header contradicts
///         `declared_kind`.
ProcessorFile read_processor_file(const std::string& path, std::optional<ValueKind> declared_kind);

/// Validated speeds from a list of the given kind.
/// @param what names the list in error messages (e.g. "--speeds").
/// @throws InvalidArgument if the list is empty or a value is not finite and > 0.
core::Speeds make_speeds(ValueKind kind, const std::vector<double>& values, const std::string& what);

/// A rows×cols shape, for a processor grid or a block panel.
struct Shape {
  std::size_t rows = 0;
  std::size_t cols = 0;
};

/// Parses "PxQ" (or "PXQ") with P, Q positive integers.
/// @param what names the option in error messages (e.g. "--grid").
/// @throws InvalidArgument if the text is not of that form or a dimension is 0.
Shape parse_shape(const std::string& text, const std::string& what);

/// The format of `path` from its extension (.svg, .png or .pdf, any case).
/// @throws InvalidArgument for any other extension.
PictureFormat picture_format_of(const std::string& path);

}  // namespace hetscal::tools::plan
