#include "schedule/datatype.hpp"

#include <fmt/format.h>

#include <array>

#include "common/error.hpp"
#include "schedule/schedule.hpp"

namespace numacoll::sched {

namespace {

struct TypeRow {
    const char* name;
    TypeClass type_class;
    Representation representation;
};

// In the order of Datatype.
constexpr std::array<TypeRow, 39> type_rows = {{
    {"int8", TypeClass::c_integer, Representation::i8},
    {"int16", TypeClass::c_integer, Representation::i16},
    {"int32", TypeClass::c_integer, Representation::i32},
    {"int64", TypeClass::c_integer, Representation::i64},
    {"uint8", TypeClass::c_integer, Representation::u8},
    {"uint16", TypeClass::c_integer, Representation::u16},
    {"uint32", TypeClass::c_integer, Representation::u32},
    {"uint64", TypeClass::c_integer, Representation::u64},
    {"char", TypeClass::character, Representation::i8},  // signed on x86-64
    {"signed_char", TypeClass::c_integer, Representation::i8},
    {"unsigned_char", TypeClass::c_integer, Representation::u8},
    {"short", TypeClass::c_integer, Representation::i16},
    {"unsigned_short", TypeClass::c_integer, Representation::u16},
    {"int", TypeClass::c_integer, Representation::i32},
    {"unsigned", TypeClass::c_integer, Representation::u32},
    {"long", TypeClass::c_integer, Representation::i64},
    {"unsigned_long", TypeClass::c_integer, Representation::u64},
    {"long_long", TypeClass::c_integer, Representation::i64},
    {"unsigned_long_long", TypeClass::c_integer, Representation::u64},
    {"float", TypeClass::floating, Representation::f32},
    {"double", TypeClass::floating, Representation::f64},
    {"long_double", TypeClass::floating, Representation::f80},
    {"c_float_complex", TypeClass::complex, Representation::cf32},
    {"c_double_complex", TypeClass::complex, Representation::cf64},
    {"c_long_double_complex", TypeClass::complex, Representation::cf80},
    {"c_bool", TypeClass::logical, Representation::bool8},
    {"integer", TypeClass::fortran_integer, Representation::i32},
    {"real", TypeClass::floating, Representation::f32},
    {"double_precision", TypeClass::floating, Representation::f64},
    {"complex", TypeClass::complex, Representation::cf32},
    {"double_complex", TypeClass::complex, Representation::cf64},
    {"logical", TypeClass::logical, Representation::logical32},
    {"byte", TypeClass::byte, Representation::byte},
    {"float_int", TypeClass::pair, Representation::float_int},
    {"double_int", TypeClass::pair, Representation::double_int},
    {"long_int", TypeClass::pair, Representation::long_int},
    {"2int", TypeClass::pair, Representation::int_int},
    {"short_int", TypeClass::pair, Representation::short_int},
    {"long_double_int", TypeClass::pair, Representation::long_double_int},
}};

const TypeRow& row_of(Datatype datatype) { return type_rows.at(static_cast<std::size_t>(datatype)); }

// The classes each operation applies to (MPI 4.0, section 6.9.2).
std::vector<TypeClass> classes_for(ReduceOp op) {
    switch (op) {
        case ReduceOp::min:
        case ReduceOp::max: return {TypeClass::c_integer, TypeClass::fortran_integer, TypeClass::floating};
        case ReduceOp::sum:
        case ReduceOp::prod:
            return {TypeClass::c_integer, TypeClass::fortran_integer, TypeClass::floating, TypeClass::complex};
        case ReduceOp::land:
        case ReduceOp::lor:
        case ReduceOp::lxor: return {TypeClass::c_integer, TypeClass::logical};
        case ReduceOp::band:
        case ReduceOp::bor:
        case ReduceOp::bxor: return {TypeClass::c_integer, TypeClass::fortran_integer, TypeClass::byte};
        case ReduceOp::minloc:
        case ReduceOp::maxloc: return {TypeClass::pair};
    }
    return {};
}

const char* class_name(TypeClass type_class) {
    switch (type_class) {
        case TypeClass::c_integer: return "C integer";
        case TypeClass::fortran_integer: return "Fortran integer";
        case TypeClass::floating: return "floating point";
        case TypeClass::complex: return "complex";
        case TypeClass::logical: return "logical";
        case TypeClass::byte: return "byte";
        case TypeClass::pair: return "value-index pair";
        case TypeClass::character: return "character";
    }
    return "?";
}

}  // namespace

const char* to_string(Datatype datatype) {
    const auto index = static_cast<std::size_t>(datatype);
    return index < type_rows.size() ? type_rows[index].name : "?";
}

Datatype parse_datatype(const std::string& text) {
    std::string expected;
    for (std::size_t index = 0; index < type_rows.size(); ++index) {
        if (text == type_rows[index].name) return static_cast<Datatype>(index);
        expected += (expected.empty() ? "" : ", ") + std::string(type_rows[index].name);
    }
    throw UsageError(fmt::format("unknown datatype '{}': expected one of {}", text, expected));
}

const std::vector<Datatype>& all_datatypes() {
    static const std::vector<Datatype> all = [] {
        std::vector<Datatype> types;
        for (std::size_t index = 0; index < type_rows.size(); ++index) types.push_back(static_cast<Datatype>(index));
        return types;
    }();
    return all;
}

const std::vector<Datatype>& one_datatype_per_representation() {
    static const std::vector<Datatype> one = [] {
        std::vector<Datatype> types;
        for (Datatype datatype : all_datatypes()) {
            bool seen = false;
            for (Datatype kept : types) seen = seen || representation(kept) == representation(datatype);
            if (!seen) types.push_back(datatype);
        }
        return types;
    }();
    return one;
}

TypeClass type_class(Datatype datatype) { return row_of(datatype).type_class; }
Representation representation(Datatype datatype) { return row_of(datatype).representation; }

std::uint64_t element_size(Datatype datatype) {
    switch (representation(datatype)) {
        case Representation::i8:
        case Representation::u8:
        case Representation::bool8:
        case Representation::byte: return 1;
        case Representation::i16:
        case Representation::u16: return 2;
        case Representation::i32:
        case Representation::u32:
        case Representation::f32:
        case Representation::logical32: return 4;
        case Representation::i64:
        case Representation::u64:
        case Representation::f64:
        case Representation::cf32:
        case Representation::float_int:
        case Representation::int_int:
        case Representation::short_int: return 8;
        case Representation::f80:  // x87 extended, padded to 16 (the x86-64 ABI)
        case Representation::cf64:
        case Representation::double_int:
        case Representation::long_int: return 16;
        case Representation::cf80:
        case Representation::long_double_int: return 32;
    }
    return 1;
}

bool applies(ReduceOp op, Datatype datatype) {
    for (TypeClass type_class_of_op : classes_for(op))
        if (type_class_of_op == type_class(datatype)) return true;
    return false;
}

std::string classes_of(ReduceOp op) {
    const std::vector<TypeClass> classes = classes_for(op);
    std::string text;
    for (std::size_t k = 0; k < classes.size(); ++k)
        text += (k == 0 ? "" : k + 1 == classes.size() ? " and " : ", ") + std::string(class_name(classes[k]));
    return text + " types";
}

std::vector<ReduceOp> operations_on(Datatype datatype) {
    std::vector<ReduceOp> ops;
    for (int op = 0; op <= static_cast<int>(ReduceOp::maxloc); ++op)
        if (applies(static_cast<ReduceOp>(op), datatype)) ops.push_back(static_cast<ReduceOp>(op));
    return ops;
}

void check_datatype(const CollectiveSpec& spec) {
    if (!is_reduction(spec.collective)) return;  // copies move bytes: any count
    if (!applies(spec.op, spec.datatype))
        throw UsageError(fmt::format("operation {} does not apply to {}: MPI defines it on {}", to_string(spec.op),
                                     to_string(spec.datatype), classes_of(spec.op)));
    const std::uint64_t size = element_size(spec.datatype);
    if (spec.bytes % size != 0)
        throw UsageError(fmt::format("{} works on {}-byte elements ({}): {} bytes is not a multiple of {}",
                                     to_string(spec.collective), size, to_string(spec.datatype), spec.bytes, size));
}

}  // namespace numacoll::sched
