//! A protobuf message's fields read apart from the importers: tests decode real traces with
//! it to check the importers' numbers against values read a second way.

/// The fields of one protobuf message: (field, varint value or bytes).
pub fn fields(mut bytes: &[u8]) -> Vec<(u64, Field<'_>)> {
    let mut out = Vec::new();
    while !bytes.is_empty() {
        let key = varint(&mut bytes);
        let value = match key & 7 {
            0 => Field::Int(varint(&mut bytes)),
            1 => {
                bytes = &bytes[8..];
                Field::Int(0)
            }
            5 => {
                bytes = &bytes[4..];
                Field::Int(0)
            }
            2 => {
                let len = varint(&mut bytes) as usize;
                let (value, rest) = bytes.split_at(len);
                bytes = rest;
                Field::Bytes(value)
            }
            wire => panic!("wire type {wire}"),
        };
        out.push((key >> 3, value));
    }
    out
}

#[derive(Clone, Copy)]
pub enum Field<'a> {
    /// A varint's value (fixed-width values read as 0).
    Int(u64),
    /// A length-delimited value.
    Bytes(&'a [u8]),
}

impl<'a> Field<'a> {
    pub fn int(self) -> u64 {
        match self {
            Field::Int(v) => v,
            Field::Bytes(_) => panic!("not a varint"),
        }
    }
    pub fn bytes(self) -> &'a [u8] {
        match self {
            Field::Bytes(b) => b,
            Field::Int(_) => panic!("not bytes"),
        }
    }
}

pub fn varint(bytes: &mut &[u8]) -> u64 {
    let mut value = 0;
    for shift in (0..64).step_by(7) {
        let b = bytes[0];
        *bytes = &bytes[1..];
        value |= u64::from(b & 0x7F) << shift;
        if b < 0x80 {
            break;
        }
    }
    value
}

pub fn get<'a>(message: &[(u64, Field<'a>)], field: u64) -> Option<Field<'a>> {
    message.iter().find(|(f, _)| *f == field).map(|(_, v)| *v)
}
