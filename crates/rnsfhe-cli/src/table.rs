//! Markdown tables for stdout.

/// A markdown table built row by row.
pub struct Table {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Table {
    pub fn new(header: &[&str]) -> Self {
        Table {
            header: header.iter().map(|s| s.to_string()).collect(),
            rows: Vec::new(),
        }
    }

    pub fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    /// Prints the table (and a blank line).
    pub fn print(&self) {
        println!("{}", self.markdown());
    }

    /// The table as markdown, columns padded to their widest cell, one line per row.
    pub fn markdown(&self) -> String {
        let mut width: Vec<usize> = self.header.iter().map(|h| h.chars().count()).collect();
        for r in &self.rows {
            for (w, c) in width.iter_mut().zip(r) {
                *w = (*w).max(c.chars().count());
            }
        }
        let line = |cells: &[String]| {
            let padded: Vec<String> = cells
                .iter()
                .zip(&width)
                .map(|(c, &w)| format!("{c}{}", " ".repeat(w - c.chars().count())))
                .collect();
            format!("| {} |\n", padded.join(" | "))
        };
        let mut out = line(&self.header);
        out.push_str(&format!(
            "|{}|\n",
            width
                .iter()
                .map(|&w| "-".repeat(w + 2))
                .collect::<Vec<_>>()
                .join("|")
        ));
        for r in &self.rows {
            out.push_str(&line(r));
        }
        out
    }
}
