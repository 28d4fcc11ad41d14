//! `agx serve`: server assembly, tool execution, prompt rendering (DESIGN §7).
