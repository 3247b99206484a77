//! A writer of HPROF heap dumps (`JAVA PROFILE 1.0.3`), as ART and HotSpot write them:
//! an empty stack trace, strings and class loads as records, then one heap-dump segment of class dumps, objects
//! and roots, then the heap dump's end. Ids are 4 or 8 bytes.

/// A field's or static's value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value {
    /// An object id (0 is null).
    Object(u64),
    Bool(bool),
    /// A UTF-16 code unit.
    Char(u16),
    Float(f32),
    Double(f64),
    Byte(i8),
    Short(i16),
    Int(i32),
    Long(i64),
}

impl Value {
    /// Its basic type's code.
    pub fn code(self) -> u8 {
        match self {
            Value::Object(_) => 2,
            Value::Bool(_) => 4,
            Value::Char(_) => 5,
            Value::Float(_) => 6,
            Value::Double(_) => 7,
            Value::Byte(_) => 8,
            Value::Short(_) => 9,
            Value::Int(_) => 10,
            Value::Long(_) => 11,
        }
    }
}

/// A GC root's sub-record tag (`0x01` JNI global, `0x03` Java frame, `0x05` sticky class…).
pub type RootTag = u8;

/// A heap dump being written.
#[derive(Debug)]
pub struct HprofWriter {
    id: usize,
    out: Vec<u8>,
    segment: Vec<u8>,
    next_string: u64,
    class_serial: u32,
}

impl HprofWriter {
    /// A dump whose ids are `id_size` (4 or 8) bytes.
    pub fn new(id_size: usize) -> Self {
        let mut out = b"JAVA PROFILE 1.0.3\0".to_vec();
        out.extend((id_size as u32).to_be_bytes());
        out.extend(0u64.to_be_bytes());
        let mut w = HprofWriter { id: id_size, out, segment: Vec::new(), next_string: 0x10_0000, class_serial: 0 };
        // The empty stack trace (serial 0) that objects name as where they were made: ART
        // and HotSpot write it first, and readers such as ahat require it.
        w.record(0x05, &[0; 12]);
        w
    }

    fn id_bytes(&self, id: u64) -> Vec<u8> {
        id.to_be_bytes()[8 - self.id..].to_vec()
    }

    fn record(&mut self, tag: u8, body: &[u8]) {
        self.out.push(tag);
        self.out.extend(0u32.to_be_bytes());
        self.out.extend((body.len() as u32).to_be_bytes());
        self.out.extend(body);
    }

    /// The dump was taken at `ms` (since 1970), as its header says.
    pub fn dumped_at(&mut self, ms: u64) {
        let at = b"JAVA PROFILE 1.0.3\0".len() + 4;
        self.out[at..at + 8].copy_from_slice(&ms.to_be_bytes());
    }

    /// A string record; its id.
    pub fn string(&mut self, text: &str) -> u64 {
        self.next_string += 1;
        let id = self.next_string;
        let body = [self.id_bytes(id), text.as_bytes().to_vec()].concat();
        self.record(0x01, &body);
        id
    }

    /// A class load: class object `class` is named `name` (`java/lang/String`, `[B`).
    pub fn load_class(&mut self, class: u64, name: &str) {
        let name = self.string(name);
        self.class_serial += 1;
        let body = [
            self.class_serial.to_be_bytes().to_vec(),
            self.id_bytes(class),
            0u32.to_be_bytes().to_vec(),
            self.id_bytes(name),
        ]
        .concat();
        self.record(0x02, &body);
    }

    fn value(&self, value: Value) -> Vec<u8> {
        match value {
            Value::Object(id) => self.id_bytes(id),
            Value::Bool(b) => vec![u8::from(b)],
            Value::Char(c) => c.to_be_bytes().to_vec(),
            Value::Float(f) => f.to_be_bytes().to_vec(),
            Value::Double(d) => d.to_be_bytes().to_vec(),
            Value::Byte(b) => b.to_be_bytes().to_vec(),
            Value::Short(n) => n.to_be_bytes().to_vec(),
            Value::Int(n) => n.to_be_bytes().to_vec(),
            Value::Long(n) => n.to_be_bytes().to_vec(),
        }
    }

    /// The heap the objects after it live in (ART's heap-dump info).
    pub fn heap(&mut self, name: &str) {
        let name = self.string(name);
        let mut sub = vec![0xFE];
        sub.extend(0u32.to_be_bytes());
        sub.extend(self.id_bytes(name));
        self.segment.extend(sub);
    }

    /// A class dump: its superclass (0: none), instance size, statics with their values,
    /// and its own instance fields with their types' codes.
    pub fn class_dump(
        &mut self,
        class: u64,
        superclass: u64,
        instance_size: u32,
        statics: &[(&str, Value)],
        fields: &[(&str, u8)],
    ) {
        let mut sub = vec![0x20];
        sub.extend(self.id_bytes(class));
        sub.extend(0u32.to_be_bytes());
        sub.extend(self.id_bytes(superclass));
        (0..5).for_each(|_| sub.extend(self.id_bytes(0)));
        sub.extend(instance_size.to_be_bytes());
        sub.extend(0u16.to_be_bytes());
        sub.extend((statics.len() as u16).to_be_bytes());
        for &(name, value) in statics {
            let name = self.string(name);
            sub.extend(self.id_bytes(name));
            sub.push(value.code());
            sub.extend(self.value(value));
        }
        sub.extend((fields.len() as u16).to_be_bytes());
        for &(name, code) in fields {
            let name = self.string(name);
            sub.extend(self.id_bytes(name));
            sub.push(code);
        }
        self.segment.extend(sub);
    }

    /// An instance of `class` with its field values, its own class's first, then each
    /// superclass's.
    pub fn instance(&mut self, id: u64, class: u64, values: &[Value]) {
        let fields: Vec<u8> = values.iter().flat_map(|&v| self.value(v)).collect();
        let mut sub = vec![0x21];
        sub.extend(self.id_bytes(id));
        sub.extend(0u32.to_be_bytes());
        sub.extend(self.id_bytes(class));
        sub.extend((fields.len() as u32).to_be_bytes());
        sub.extend(fields);
        self.segment.extend(sub);
    }

    /// An array of objects of array class `class`.
    pub fn object_array(&mut self, id: u64, class: u64, elements: &[u64]) {
        let mut sub = vec![0x22];
        sub.extend(self.id_bytes(id));
        sub.extend(0u32.to_be_bytes());
        sub.extend((elements.len() as u32).to_be_bytes());
        sub.extend(self.id_bytes(class));
        elements.iter().for_each(|&e| sub.extend(self.id_bytes(e)));
        self.segment.extend(sub);
    }

    /// A `byte[]` with these contents.
    pub fn byte_array(&mut self, id: u64, bytes: &[u8]) {
        let mut sub = vec![0x23];
        sub.extend(self.id_bytes(id));
        sub.extend(0u32.to_be_bytes());
        sub.extend((bytes.len() as u32).to_be_bytes());
        sub.push(8);
        sub.extend(bytes);
        self.segment.extend(sub);
    }

    /// A primitive array of `values`, all of one type (`code`, a basic type's code, says
    /// which where there are none).
    pub fn primitive_array(&mut self, id: u64, code: u8, values: &[Value]) {
        let mut sub = vec![0x23];
        sub.extend(self.id_bytes(id));
        sub.extend(0u32.to_be_bytes());
        sub.extend((values.len() as u32).to_be_bytes());
        sub.push(code);
        values.iter().for_each(|&v| sub.extend(self.value(v)));
        self.segment.extend(sub);
    }

    /// A `char[]` of `text`'s UTF-16 code units (as Java strings before 9 held their text).
    pub fn char_array(&mut self, id: u64, text: &str) {
        let units: Vec<u16> = text.encode_utf16().collect();
        let mut sub = vec![0x23];
        sub.extend(self.id_bytes(id));
        sub.extend(0u32.to_be_bytes());
        sub.extend((units.len() as u32).to_be_bytes());
        sub.push(5);
        units.iter().for_each(|u| sub.extend(u.to_be_bytes()));
        self.segment.extend(sub);
    }

    /// Object `id` is a GC root of kind `tag`, with the thread and frame numbers its kind
    /// carries (0).
    pub fn root(&mut self, tag: RootTag, id: u64) {
        let mut sub = vec![tag];
        sub.extend(self.id_bytes(id));
        let extra = match tag {
            0x01 => self.id,
            0x02 | 0x03 | 0x08 | 0x8E => 8,
            0x04 | 0x06 => 4,
            _ => 0,
        };
        sub.extend(vec![0; extra]);
        self.segment.extend(sub);
    }

    /// The bytes of the records and ended segments so far, handed over: a large dump is
    /// written out as it is made (`end_segment` first).
    pub fn take_bytes(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.out)
    }

    /// Bytes put into the segment as they are: a damaged sub-record, say.
    pub fn raw(&mut self, bytes: &[u8]) {
        self.segment.extend(bytes);
    }

    /// Ends the heap-dump segment written so far: what follows goes into a new one (ART
    /// writes many).
    pub fn end_segment(&mut self) {
        let segment = std::mem::take(&mut self.segment);
        if !segment.is_empty() {
            self.record(0x1C, &segment);
        }
    }

    /// The dump's bytes: its records, the segments of everything dumped, and the end.
    pub fn finish(mut self) -> Vec<u8> {
        self.end_segment();
        self.record(0x2C, &[]);
        self.out
    }
}
