//! Reading a JSON value field by field: the hand-written `Deserialize` of the types a trace
//! holds, and the settings reader. serde's derive buffers an internally tagged enum
//! (`{"type": …, …fields}`) into its private `Content` type and builds every field type's
//! deserializer a second time for it, and gives each struct a visitor for maps and one for
//! sequences; in the wasm that was over 250 KB of the module. These readers take the fields
//! out of a `serde_json::Value` instead, with serde's own wording for a wrong, missing or
//! unknown field. Serialising stays derived but for the fieldless enums ([`units!`]).
//!
//! A tagged enum is declared with [`tagged!`], which writes the enum and its reader from one
//! list of variants, so a new variant cannot compile without its reader arm; a fieldless enum
//! with [`units!`], which writes and reads its variants' names. A struct's reader
//! is a struct literal beside it, which stops compiling when a field is added.

use serde::de::{Error as _, Unexpected};
use serde_json::{Error, Map, Value};

/// The fields of one object, taken out one by one.
pub(crate) struct Fields(pub(crate) Map<String, Value>);

impl Fields {
    /// An object without a tag.
    pub(crate) fn object(value: Value) -> Result<Fields, Error> {
        match value {
            Value::Object(map) => Ok(Fields(map)),
            other => Err(Error::custom(format!(
                "invalid type: {}, expected an object",
                kind(&other)
            ))),
        }
    }

    /// The object and its tag (`key` is "type", or "kind" for some enums).
    pub(crate) fn read(value: Value, key: &'static str) -> Result<(String, Fields), Error> {
        let Fields(mut map) = Fields::object(value)?;
        match map.remove(key) {
            Some(Value::String(tag)) => Ok((tag, Fields(map))),
            Some(other) => Err(Error::custom(format!(
                "invalid type: {}, expected the string field `{key}`",
                kind(&other)
            ))),
            None => Err(Error::missing_field(key)),
        }
    }

    pub(crate) fn get<T: Read>(&mut self, name: &'static str) -> Result<T, Error> {
        match self.0.remove(name) {
            Some(value) => T::read(value),
            None => Err(Error::missing_field(name)),
        }
    }

    /// An `Option` field: missing reads as `None`, as with the derive.
    pub(crate) fn opt<T: Read>(&mut self, name: &'static str) -> Result<Option<T>, Error> {
        self.0.remove(name).map_or(Ok(None), Option::read)
    }

    /// A field of a [`tagged!`] variant: missing reads as `null` would (`None` for an
    /// `Option`), and is refused by name for any other type, as with the derive.
    pub(crate) fn field<T: Read>(&mut self, name: &'static str) -> Result<T, Error> {
        match self.0.remove(name) {
            Some(value) => T::read(value),
            None => T::read(Value::Null).map_err(|_| Error::missing_field(name)),
        }
    }

    /// A field with `#[serde(default)]`: missing reads as `default`; a `null` is read as a
    /// `T` (and refused when a `T` cannot be null), as with the derive.
    pub(crate) fn or<T: Read>(&mut self, name: &'static str, default: T) -> Result<T, Error> {
        match self.0.remove(name) {
            Some(value) => T::read(value),
            None => Ok(default),
        }
    }
}

/// A type the readers take out of a JSON value: the crate's own (through [`via_value!`]) and
/// what they hold. A field read through serde's `Deserialize` instead would copy each nested
/// value into a new one before reading it, with serde's visitors for it in the wasm.
pub(crate) trait Read: Sized {
    fn read(value: Value) -> Result<Self, Error>;
}

/// serde's own reading, for the plain types.
macro_rules! read_plain {
    ($($ty:ty),*) => {$(
        impl $crate::fields::Read for $ty {
            fn read(value: serde_json::Value) -> Result<Self, serde_json::Error> {
                serde_json::from_value(value)
            }
        }
    )*};
}
read_plain!(String, char, bool, u16, u32, u64, usize, i32, i64, f64);

/// Two strings, refused in serde's words when there are more or fewer.
impl Read for [String; 2] {
    fn read(value: Value) -> Result<Self, Error> {
        let items = Vec::<String>::read(value)?;
        let len = items.len();
        items
            .try_into()
            .map_err(|_| Error::invalid_length(len, &"an array of length 2"))
    }
}

impl Read for Map<String, Value> {
    fn read(value: Value) -> Result<Self, Error> {
        match value {
            Value::Object(map) => Ok(map),
            other => Err(invalid_type(&other, "a map")),
        }
    }
}

impl Read for Value {
    fn read(value: Value) -> Result<Self, Error> {
        Ok(value)
    }
}

/// `null` is `None`, as serde reads it.
impl<T: Read> Read for Option<T> {
    fn read(value: Value) -> Result<Self, Error> {
        match value {
            Value::Null => Ok(None),
            value => T::read(value).map(Some),
        }
    }
}

impl<T: Read> Read for Vec<T> {
    fn read(value: Value) -> Result<Self, Error> {
        match value {
            Value::Array(items) => items.into_iter().map(T::read).collect(),
            other => Err(invalid_type(&other, "a sequence")),
        }
    }
}

impl<T: Read> Read for Box<[T]> {
    fn read(value: Value) -> Result<Self, Error> {
        Vec::read(value).map(Vec::into_boxed_slice)
    }
}

impl<T: Read> Read for Box<T> {
    fn read(value: Value) -> Result<Self, Error> {
        T::read(value).map(Box::new)
    }
}

/// A number JSON cannot hold (NaN, ±infinity) is written as null by serde_json; it reads
/// back as NaN.
pub(crate) fn nan_if_null(f: &mut Fields, name: &'static str) -> Result<f64, Error> {
    Ok(f.get::<Option<f64>>(name)?.unwrap_or(f64::NAN))
}

/// serde's refusal of `value` where `expected` was wanted.
pub(crate) fn invalid_type(value: &Value, expected: &str) -> Error {
    Error::invalid_type(unexpected(value), &expected)
}

/// A value as serde's messages name what was found instead.
fn unexpected(value: &Value) -> Unexpected<'_> {
    match value {
        Value::Null => Unexpected::Unit,
        Value::Bool(b) => Unexpected::Bool(*b),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => Unexpected::Unsigned(u),
            (_, Some(i)) => Unexpected::Signed(i),
            _ => Unexpected::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        Value::String(s) => Unexpected::Str(s),
        Value::Array(_) => Unexpected::Seq,
        Value::Object(_) => Unexpected::Map,
    }
}

/// A value's JSON text, compact, as its `Display` writes it, through serde_json's writer to a
/// string, which the crate uses anyway (`Display` builds a writer of its own into the wasm).
pub(crate) fn json_text(value: &Value) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// The kind of a JSON value, in serde's words.
pub(crate) fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "sequence",
        Value::Object(_) => "map",
    }
}

/// [`Read`] by a reader, and `impl Deserialize` through `Value` and the same reader; the
/// reader is built once, whatever the deserializer.
macro_rules! via_value {
    ($($ty:ty => $read:expr,)*) => {$(
        impl $crate::fields::Read for $ty {
            fn read(value: serde_json::Value) -> Result<Self, serde_json::Error> {
                $read(value)
            }
        }

        impl<'de> serde::Deserialize<'de> for $ty {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let value = <serde_json::Value as serde::Deserialize>::deserialize(d)?;
                $read(value).map_err(serde::de::Error::custom)
            }
        }
    )*};
}
pub(crate) use via_value;

/// A fieldless enum, written and read as its variant's name in snake case (`JsonObject` →
/// `"json_object"`, as serde's `rename_all = "snake_case"` writes it; `label()`), with the list
/// of its variants (`ALL`). serde's derive gives each such enum a visitor for strings, bytes,
/// indices and enums of its own (7 KB of wasm for [`crate::parse::Repair`] alone); here the
/// names are read by one function for all of them.
macro_rules! units {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        $vis enum $name {
            $( $(#[$vmeta])* $variant, )*
        }

        impl $name {
            /// Every variant, in the order declared.
            pub const ALL: [$name; [$(stringify!($variant)),*].len()] = [$($name::$variant),*];
            /// Their names as declared (`JsonObject`); JSON's is [`crate::fields::snake_case`].
            pub const VARIANTS: [&str; [$(stringify!($variant)),*].len()] =
                [$(stringify!($variant)),*];
        }

        impl $name {
            /// Its name in settings and traces: the variant's in snake case.
            pub fn label(&self) -> String {
                $crate::fields::snake_case(match self {
                    $( $name::$variant => stringify!($variant), )*
                })
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(&self.label())
            }
        }

        $crate::fields::via_value! { $name => |value| {
            let at = $crate::fields::unit(&$name::VARIANTS, value)?;
            Ok::<_, serde_json::Error>($name::ALL[at].clone())
        }, }
    };
}
pub(crate) use units;

/// A variant's name in snake case, as serde's `rename_all = "snake_case"` writes it.
pub(crate) fn snake_case(variant: &str) -> String {
    let mut snake = String::new();
    for (i, c) in variant.char_indices() {
        if i > 0 && c.is_uppercase() {
            snake.push('_');
        }
        snake.push(c.to_ascii_lowercase());
    }
    snake
}

/// Which of `variants` (as declared) `value` names, refused in serde's words.
pub(crate) fn unit(variants: &[&str], value: Value) -> Result<usize, Error> {
    let Value::String(tag) = &value else {
        return Err(invalid_type(&value, "string or map"));
    };
    let names: Vec<String> = variants.iter().map(|v| snake_case(v)).collect();
    if let Some(at) = names.iter().position(|name| name == tag) {
        return Ok(at);
    }
    let names: Vec<String> = names.iter().map(|name| format!("`{name}`")).collect();
    let expected = match names.as_slice() {
        [one] => one.clone(),
        [a, b] => format!("{a} or {b}"),
        _ => format!("one of {}", names.join(", ")),
    };
    Err(Error::custom(format!(
        "unknown variant `{tag}`, expected {expected}"
    )))
}

/// An internally tagged enum (`#[serde(tag = …)]`, written by serde's derive) and its reader,
/// from one list: each variant is followed by its tag, `= "snake_case_name"`. A newtype
/// variant's fields are read beside the tag (serde flattens them so), by the inner type's
/// `read`. A field may name its own reader: `field: f64 => nan_if_null`.
macro_rules! tagged {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident in $key:literal {
            $(
                $(#[$vmeta:meta])*
                $variant:ident
                $({ $( $(#[$fmeta:meta])* $field:ident : $fty:ty $(=> $with:path)? ),* $(,)? })?
                $(( $inner:ty ))?
                = $tag:literal
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        $vis enum $name {
            $(
                $(#[$vmeta])*
                $variant $({ $( $(#[$fmeta])* $field: $fty ),* })? $(($inner))?,
            )*
        }

        impl $name {
            /// Every variant's tag, in the order declared.
            pub const TAGS: &[&str] = &[$($tag),*];

            /// Reads what serde's derive writes for this enum.
            #[allow(unused_mut)]
            pub(crate) fn read(value: serde_json::Value) -> Result<Self, serde_json::Error> {
                let (tag, mut f) = $crate::fields::Fields::read(value, $key)?;
                Ok(match tag.as_str() {
                    $(
                        $tag => $crate::fields::tagged!(@build f $name $variant
                            $({ $( $field: $fty $(=> $with)? ),* })? $(($inner))?),
                    )*
                    _ => return Err(serde::de::Error::unknown_variant(&tag, Self::TAGS)),
                })
            }
        }

        $crate::fields::via_value! { $name => $name::read, }
    };
    (@build $f:ident $name:ident $variant:ident { $( $field:ident : $fty:ty $(=> $with:path)? ),* }) => {
        $name::$variant { $( $field: $crate::fields::tagged!(@field $f $field $fty $(=> $with)?) ),* }
    };
    (@build $f:ident $name:ident $variant:ident ($inner:ty)) => {
        $name::$variant(<$inner>::read(serde_json::Value::Object($f.0))?)
    };
    (@build $f:ident $name:ident $variant:ident) => {
        $name::$variant
    };
    (@field $f:ident $field:ident $fty:ty => $with:path) => {
        $with(&mut $f, stringify!($field))?
    };
    (@field $f:ident $field:ident $fty:ty) => {
        $f.field::<$fty>(stringify!($field))?
    };
}
pub(crate) use tagged;

#[cfg(test)]
mod tests {
    use crate::trace::{Guard, Outcome};
    use serde_json::json;

    #[test]
    fn json_text_is_what_display_writes() {
        let value = json!({"a": [1, 2.5, -3, null, true], "b": {"c": "d\"e\n", "ü": 1e21}});
        assert_eq!(super::json_text(&value), value.to_string());
    }

    /// Each case: the JSON, and the message serde's derive gave for it.
    #[test]
    fn bad_fields_are_named_as_the_derive_named_them() {
        let cases = [
            (json!({"consecutive": 1}), "missing field `type`"),
            (
                json!({"type": "nope"}),
                "unknown variant `nope`, expected one of `format_feedback`",
            ),
            (
                json!({"type": "format_feedback", "consecutive": 1}),
                "missing field `error`",
            ),
            (
                json!({"type": "step_limit", "steps": "8"}),
                "invalid type: string \"8\", expected usize",
            ),
            (json!([1]), "invalid type: sequence, expected an object"),
        ];
        for (value, want) in cases {
            let got = serde_json::from_value::<Guard>(value.clone()).unwrap_err();
            assert!(got.to_string().starts_with(want), "{value}: {got}");
        }
    }

    super::units! {
        #[derive(Debug, Clone, Copy, PartialEq)]
        enum Ours {
            FirstOne,
            Second,
            OpenAi,
            LlamaCppPython,
            X2,
        }
    }

    #[derive(Debug, serde::Serialize, serde::Deserialize)]
    #[serde(rename_all = "snake_case")]
    enum Derived {
        FirstOne,
        Second,
        OpenAi,
        LlamaCppPython,
        X2,
    }

    /// A fieldless enum writes the names serde's derive writes, reads them back, and refuses
    /// anything else as the derive refuses it (a map aside: the derive takes
    /// `{"second": null}`, which no trace writes).
    #[test]
    fn units_read_their_names_and_refuse_others_in_serde_words() {
        let derived = [
            Derived::FirstOne,
            Derived::Second,
            Derived::OpenAi,
            Derived::LlamaCppPython,
            Derived::X2,
        ];
        for (ours, derived) in Ours::ALL.into_iter().zip(derived) {
            let name = serde_json::to_value(ours).expect("a name");
            assert_eq!(name, serde_json::to_value(derived).expect("a name"));
            assert_eq!(serde_json::from_value::<Ours>(name).ok(), Some(ours));
        }
        let got = serde_json::from_value::<Ours>(json!("nope")).unwrap_err();
        assert_eq!(
            got.to_string(),
            "unknown variant `nope`, expected one of `first_one`, `second`, `open_ai`, \
             `llama_cpp_python`, `x2`"
        );
        for value in [
            json!(3),
            json!(-3),
            json!(1.5),
            json!(true),
            json!(null),
            json!([1]),
        ] {
            let ours = serde_json::from_value::<Ours>(value.clone()).unwrap_err();
            let derived = serde_json::from_value::<Derived>(value.clone()).unwrap_err();
            assert_eq!(ours.to_string(), derived.to_string(), "{value}");
        }
    }

    #[test]
    fn optional_fields_may_be_left_out() {
        let outcome: Outcome =
            serde_json::from_value(json!({"type": "step_limit", "steps": 3})).expect("reads");
        assert_eq!(
            outcome,
            Outcome::StepLimit {
                steps: 3,
                last_observation: None
            }
        );
    }
}
