//! clang response files (`@file`).

use super::UsageError;

/// Expands `@file` arguments (clang's response files: whitespace-separated, with quotes and
/// backslash escapes), recursively. An `@name` that is not a readable file stays as it is, as
/// clang does.
pub(super) fn expand_response_files(args: &[String]) -> Result<Vec<String>, UsageError> {
    fn expand(args: &[String], depth: usize, out: &mut Vec<String>) -> Result<(), UsageError> {
        for arg in args {
            match arg.strip_prefix('@') {
                Some(file) if !file.is_empty() => match std::fs::read_to_string(file) {
                    Ok(text) => {
                        if depth >= 16 {
                            return Err(UsageError(format!(
                                "response files nested too deeply at '{arg}'"
                            )));
                        }
                        expand(&split_response_file(&text), depth + 1, out)?;
                    }
                    Err(_) => out.push(arg.clone()),
                },
                _ => out.push(arg.clone()),
            }
        }
        Ok(())
    }
    let mut out = Vec::with_capacity(args.len());
    expand(args, 0, &mut out)?;
    Ok(out)
}

/// Splits response-file text the way GNU tools do.
pub(super) fn split_response_file(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (_, '\\') => {
                if let Some(next) = chars.next() {
                    word.push(next);
                }
                in_word = true;
            }
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn response_file_splitting_handles_quotes_and_escapes() {
        let words = split_response_file("-I 'a b' \"c d\"\n  e\\ f -DX=\"1\"");
        assert_eq!(words, ["-I", "a b", "c d", "e f", "-DX=1"]);
    }
}
