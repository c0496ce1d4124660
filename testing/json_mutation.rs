//! Mutations of a JSON request for the fuzz tests of `gunjin referee`, `gunjin bot` and the room
//! socket: JSON-level steps while the request is still JSON, byte-level ones after. Included by
//! path from each crate's tests (test code: a failed unwrap is a failed test).

use serde_json::Value;

/// One step of a mutation: which operation, two parameters, and a value to put somewhere.
#[derive(Clone, Debug)]
pub struct Mutation {
    pub op: u8,
    pub a: usize,
    pub b: usize,
    pub value: Value,
}

fn node_count(v: &Value) -> usize {
    1 + match v {
        Value::Array(a) => a.iter().map(node_count).sum(),
        Value::Object(o) => o.values().map(node_count).sum(),
        _ => 0,
    }
}

fn nth_node(v: &mut Value, mut n: usize) -> Option<&mut Value> {
    if n == 0 {
        return Some(v);
    }
    n -= 1;
    let children: Vec<&mut Value> = match v {
        Value::Array(a) => a.iter_mut().collect(),
        Value::Object(o) => o.values_mut().collect(),
        _ => return None,
    };
    for child in children {
        let size = node_count(child);
        if n < size {
            return nth_node(child, n);
        }
        n -= size;
    }
    None
}

/// JSON-level steps (replace, delete, insert, rename, swap) while the frame is JSON, byte-level
/// ones (truncate, set, insert, delete, repeat) after.
pub fn mutate(template: &Value, plan: &[Mutation], words: &[&str]) -> Vec<u8> {
    let mut value = Some(template.clone());
    let mut bytes = Vec::new();
    for m in plan {
        match (&mut value, m.op) {
            (Some(v), 0..=4) => {
                let n = m.a % node_count(v);
                let Some(node) = nth_node(v, n) else { continue };
                match (m.op, node) {
                    (0, node) => *node = m.value.clone(),
                    (1, Value::Array(a)) if !a.is_empty() => {
                        a.remove(m.b % a.len());
                    }
                    (1, Value::Object(o)) if !o.is_empty() => {
                        let key = o.keys().nth(m.b % o.len()).unwrap().clone();
                        o.remove(&key);
                    }
                    (2, Value::Array(a)) => a.push(m.value.clone()),
                    (2, Value::Object(o)) => {
                        o.insert(words[m.b % words.len()].to_owned(), m.value.clone());
                    }
                    (3, Value::Object(o)) if !o.is_empty() => {
                        let key = o.keys().nth(m.b % o.len()).unwrap().clone();
                        let moved = o.remove(&key).unwrap();
                        o.insert(words[m.a % words.len()].to_owned(), moved);
                    }
                    (4, Value::Object(o)) if o.len() >= 2 => {
                        let keys: Vec<String> = o.keys().cloned().collect();
                        let (i, j) = (m.b % keys.len(), (m.b / 7) % keys.len());
                        let first = o[&keys[i]].clone();
                        let second = std::mem::replace(o.get_mut(&keys[j]).unwrap(), first);
                        o[&keys[i]] = second;
                    }
                    _ => {}
                }
            }
            (Some(_), _) => {
                bytes = value.take().unwrap().to_string().into_bytes();
                mutate_bytes(&mut bytes, m);
            }
            (None, 0..=4) => {}
            (None, _) => mutate_bytes(&mut bytes, m),
        }
    }
    value.map_or(bytes, |v| v.to_string().into_bytes())
}

fn mutate_bytes(bytes: &mut Vec<u8>, m: &Mutation) {
    let at = m.a % bytes.len().max(1);
    match m.op {
        5 => bytes.truncate(at),
        6 if !bytes.is_empty() => bytes[at] = m.b as u8,
        7 => bytes.insert(at.min(bytes.len()), m.b as u8),
        8 if !bytes.is_empty() => {
            bytes.remove(at);
        }
        _ => {
            let end = (at + 1 + m.b % 16).min(bytes.len());
            let start = at.min(end);
            let piece = bytes[start..end].to_vec();
            bytes.splice(start..start, piece);
        }
    }
}
