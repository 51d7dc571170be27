//! The TypeScript types of the optional arguments: JavaScript values as they come,
//! declared in the `.d.ts` as what they should be (left out, `undefined` or `null` is
//! `None`). The functions check them and throw what is wrong.

use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// A seed: an integer from 0 to 2**64 - 1.
    #[wasm_bindgen(typescript_type = "number | bigint")]
    pub type SeedArg;
    /// A count or a size.
    #[wasm_bindgen(typescript_type = "number")]
    pub type NumberArg;
    /// A player.
    #[wasm_bindgen(typescript_type = "\"r\" | \"b\"")]
    pub type SideArg;
    /// `BotOptions`.
    #[wasm_bindgen(typescript_type = "BotOptions")]
    pub type BotOptionsArg;
    /// `MatchOptions`.
    #[wasm_bindgen(typescript_type = "MatchOptions")]
    pub type MatchOptionsArg;
    /// `SearchLimits`.
    #[wasm_bindgen(typescript_type = "SearchLimits")]
    pub type SearchLimitsArg;
    /// The options of `review`.
    #[wasm_bindgen(typescript_type = "{ timeLimitMs?: number; budgetMs?: number }")]
    pub type ReviewOptionsArg;
    /// The options of `analyze`.
    #[wasm_bindgen(typescript_type = "{ timeLimitMs?: number }")]
    pub type AnalyzeOptionsArg;
    /// The options of `new Searcher`.
    #[wasm_bindgen(typescript_type = "{ ttMb?: number }")]
    pub type SearcherOptionsArg;
    /// `DrawOptions`.
    #[wasm_bindgen(typescript_type = "DrawOptions")]
    pub type DrawOptionsArg;
    /// The tags of a record.
    #[wasm_bindgen(typescript_type = "Record<string, string | null>")]
    pub type TagsArg;
}

/// An optional argument as a JavaScript value (`undefined` when left out).
pub(crate) fn given<T: Into<JsValue>>(value: Option<T>) -> JsValue {
    value.map_or(JsValue::UNDEFINED, Into::into)
}
