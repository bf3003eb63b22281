//! The screen a form is laid out for: the request's `device` option, read
//! by the parser and by the generator.

/// The screen a form is laid out for (the request's `device` option).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Device {
    /// Wide screens: short related fields share rows.
    #[default]
    Desktop,
    /// Narrow screens: one column (no rows; steps stay).
    Mobile,
}

impl Device {
    /// Every device, by wire name.
    pub const NAMES: [&'static str; 2] = ["desktop", "mobile"];

    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Desktop => "desktop",
            Self::Mobile => "mobile",
        }
    }

    /// Parses a wire name.
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "desktop" => Some(Self::Desktop),
            "mobile" => Some(Self::Mobile),
            _ => None,
        }
    }
}
