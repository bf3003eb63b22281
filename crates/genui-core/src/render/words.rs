//! The texts the worker writes itself (buttons, approval prompts, the
//! hosted page's messages, `/v1/submit`'s field messages and its pages for a person), in every
//! language it ships, from one table: [`TABLE`], one row per [`Text`],
//! one column per language of [`LANGS`].
//!
//! Texts are looked up at render time by id, from the request's `locale`,
//! never stored in a spec: a deterministic spec is cached without its
//! locale, and serves every language. A tag falls back to its language
//! (`de-AT` -> `de`), then to English.
//!
//! Why a table in the source and not Fluent or ICU4X data: the strings are
//! a few dozen short lines with at most two named slots and no plural
//! rules worth a runtime; `fluent-bundle` would add its parser, resolver
//! and `intl_pluralrules` to the wasm (tens of KB gzip), ICU4X data more.
//! A `[&str; 7]` per row also makes a missing translation a compile error;
//! the tests check the slots agree across languages.

/// The languages, in the column order of [`TABLE`]; English first (the fallback).
pub(crate) const LANGS: [&str; 7] = ["en", "de", "fr", "es", "pt", "ja", "zh"];

/// Declares [`Text`] and [`TABLE`] together, so a row cannot lack an id.
macro_rules! texts {
    ($($(#[doc = $doc:literal])* $id:ident => [$($t:literal),* $(,)?],)*) => {
        /// One text the worker writes.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub(crate) enum Text {
            $($(#[doc = $doc])* $id,)*
        }

        impl Text {
            /// Every text, in table order.
            #[cfg(test)]
            pub(crate) const ALL: &'static [Text] = &[$(Text::$id,)*];
        }

        /// The translations, one row per [`Text`] in declaration order.
        pub(crate) const TABLE: &[[&str; 7]] = &[$([$($t),*],)*];
    };
}

texts! {
    /// The submit button.
    Submit => ["Submit", "Absenden", "Envoyer", "Enviar", "Enviar", "送信", "提交"],
    /// RJSF's submit button on an approval.
    Confirm => ["Confirm", "Bestätigen", "Confirmer", "Confirmar", "Confirmar", "確認", "确认"],
    /// The approving button.
    Approve => ["Approve", "Genehmigen", "Approuver", "Aprobar", "Aprovar", "承認", "批准"],
    /// The rejecting button.
    Reject => ["Reject", "Ablehnen", "Rejeter", "Rechazar", "Rejeitar", "却下", "拒绝"],
    /// An approval prompt.
    ApprovalNeeded => ["Approval needed: {action}", "Genehmigung erforderlich: {action}", "Approbation requise : {action}", "Se requiere aprobación: {action}", "Aprovação necessária: {action}", "承認が必要です: {action}", "需要批准：{action}"],
    /// An approval prompt with its importance.
    ApprovalNeededLevel => ["Approval needed ({level}): {action}", "Genehmigung erforderlich ({level}): {action}", "Approbation requise ({level}) : {action}", "Se requiere aprobación ({level}): {action}", "Aprovação necessária ({level}): {action}", "承認が必要です（{level}）: {action}", "需要批准（{level}）：{action}"],
    /// Adds an array row.
    Add => ["Add", "Hinzufügen", "Ajouter", "Añadir", "Adicionar", "追加", "添加"],
    /// Removes an array row.
    Remove => ["Remove", "Entfernen", "Supprimer", "Eliminar", "Remover", "削除", "删除"],
    /// Beside a required field's label, for screen readers.
    Required => ["required", "erforderlich", "obligatoire", "obligatorio", "obrigatório", "必須", "必填"],
    /// The empty choice of a drop-down.
    Choose => ["Choose…", "Bitte wählen…", "Choisir…", "Elegir…", "Escolher…", "選択してください…", "请选择…"],
    /// The heading of the error summary.
    ErrorSummary => ["There is a problem", "Bitte prüfen Sie Ihre Eingaben", "Il y a un problème", "Hay un problema", "Há um problema", "入力内容に問題があります", "填写有误"],
    /// The help of a field edited as JSON text.
    JsonHint => ["Enter the value as JSON.", "Geben Sie den Wert als JSON ein.", "Saisissez la valeur en JSON.", "Introduzca el valor como JSON.", "Insira o valor como JSON.", "値を JSON で入力してください。", "请以 JSON 格式输入值。"],
    /// The title of a form whose request gives none (render/mod.rs `fallback_title`).
    TitleDetails => ["Your details", "Ihre Angaben", "Vos informations", "Sus datos", "Seus dados", "ご入力内容", "您的信息"],
    /// The title of an approval whose request gives none.
    TitleApproval => ["Approval", "Genehmigung", "Approbation", "Aprobación", "Aprovação", "承認", "审批"],
    /// The title of a display (tables and charts, nothing to send) whose request gives none.
    TitleDisplay => ["Overview", "Übersicht", "Aperçu", "Resumen", "Visão geral", "概要", "概览"],
    /// The form as a whole (an error not at any field).
    Form => ["Form", "Formular", "Formulaire", "Formulario", "Formulário", "フォーム", "表单"],
    /// A required field is missing.
    FieldRequired => ["This field is required.", "Dieses Feld ist erforderlich.", "Ce champ est obligatoire.", "Este campo es obligatorio.", "Este campo é obrigatório.", "この項目は必須です。", "此字段为必填项。"],
    /// A value of the wrong type.
    FieldType => ["Enter a valid value.", "Geben Sie einen gültigen Wert ein.", "Saisissez une valeur valide.", "Introduzca un valor válido.", "Insira um valor válido.", "有効な値を入力してください。", "请输入有效的值。"],
    /// A string not in its format.
    FieldFormat => ["Enter a value in the format {format}.", "Geben Sie einen Wert im Format {format} ein.", "Saisissez une valeur au format {format}.", "Introduzca un valor con el formato {format}.", "Insira um valor no formato {format}.", "{format} 形式で入力してください。", "请输入 {format} 格式的值。"],
    /// A number below its minimum.
    FieldMinimum => ["Enter {limit} or more.", "Geben Sie {limit} oder mehr ein.", "Saisissez {limit} ou plus.", "Introduzca {limit} o más.", "Insira {limit} ou mais.", "{limit} 以上を入力してください。", "请输入不小于 {limit} 的值。"],
    /// A number above its maximum.
    FieldMaximum => ["Enter {limit} or less.", "Geben Sie {limit} oder weniger ein.", "Saisissez {limit} ou moins.", "Introduzca {limit} o menos.", "Insira {limit} ou menos.", "{limit} 以下を入力してください。", "请输入不大于 {limit} 的值。"],
    /// A number not above its exclusive minimum.
    FieldAbove => ["Enter a value greater than {limit}.", "Geben Sie einen Wert größer als {limit} ein.", "Saisissez une valeur supérieure à {limit}.", "Introduzca un valor mayor que {limit}.", "Insira um valor maior que {limit}.", "{limit} より大きい値を入力してください。", "请输入大于 {limit} 的值。"],
    /// A number not below its exclusive maximum.
    FieldBelow => ["Enter a value less than {limit}.", "Geben Sie einen Wert kleiner als {limit} ein.", "Saisissez une valeur inférieure à {limit}.", "Introduzca un valor menor que {limit}.", "Insira um valor menor que {limit}.", "{limit} より小さい値を入力してください。", "请输入小于 {limit} 的值。"],
    /// A text too long.
    FieldTooLong => ["Use at most {limit} characters.", "Verwenden Sie höchstens {limit} Zeichen.", "Utilisez au plus {limit} caractères.", "Use como máximo {limit} caracteres.", "Use no máximo {limit} caracteres.", "{limit} 文字以内で入力してください。", "最多 {limit} 个字符。"],
    /// A text too short.
    FieldTooShort => ["Use at least {limit} characters.", "Verwenden Sie mindestens {limit} Zeichen.", "Utilisez au moins {limit} caractères.", "Use al menos {limit} caracteres.", "Use pelo menos {limit} caracteres.", "{limit} 文字以上で入力してください。", "至少 {limit} 个字符。"],
    /// A text not matching its pattern.
    FieldPattern => ["Use the expected format.", "Verwenden Sie das erwartete Format.", "Respectez le format attendu.", "Use el formato esperado.", "Use o formato esperado.", "正しい形式で入力してください。", "请使用规定的格式。"],
    /// A value outside its choices.
    FieldChoice => ["Choose one of the options.", "Wählen Sie eine der Optionen.", "Choisissez l'une des options.", "Elija una de las opciones.", "Escolha uma das opções.", "選択肢から選んでください。", "请从选项中选择。"],
    /// Any other violation.
    FieldInvalid => ["This value is not valid.", "Dieser Wert ist ungültig.", "Cette valeur n'est pas valide.", "Este valor no es válido.", "Este valor não é válido.", "この値は無効です。", "此值无效。"],
    /// `/v1/submit`'s message for `submission_invalid`.
    SubmissionInvalid => ["The submitted data has {count} problem(s); the first at {pointer}: {message}", "Die gesendeten Daten haben {count} Fehler; der erste bei {pointer}: {message}", "Les données envoyées comportent {count} erreur(s) ; la première à {pointer} : {message}", "Los datos enviados tienen {count} error(es); el primero en {pointer}: {message}", "Os dados enviados têm {count} erro(s); o primeiro em {pointer}: {message}", "送信データに {count} 件の問題があります。最初は {pointer}: {message}", "提交的数据有 {count} 处错误；第一处在 {pointer}：{message}"],
    /// A hosted form's answer, stored and on its way (before the first attempt ends).
    Received => ["Thank you. Your answer has been received and is being sent.", "Vielen Dank. Ihre Antwort ist eingegangen und wird gesendet.", "Merci. Votre réponse a été reçue et est en cours d'envoi.", "Gracias. Su respuesta se ha recibido y se está enviando.", "Obrigado. A sua resposta foi recebida e está a ser enviada.", "ありがとうございます。回答を受け付けました。送信しています。", "谢谢。您的回答已收到，正在发送。"],
    /// A hosted form's answer was delivered.
    Delivered => ["Thank you. Your answer has been sent.", "Vielen Dank. Ihre Antwort wurde gesendet.", "Merci. Votre réponse a été envoyée.", "Gracias. Su respuesta se ha enviado.", "Obrigado. A sua resposta foi enviada.", "ありがとうございます。回答を送信しました。", "谢谢。您的回答已发送。"],
    /// A hosted form's answer is kept and retried.
    Retrying => ["Your answer is saved. The recipient cannot be reached yet; it will be sent automatically.", "Ihre Antwort ist gespeichert. Der Empfänger ist noch nicht erreichbar; sie wird automatisch gesendet.", "Votre réponse est enregistrée. Le destinataire est injoignable pour l'instant ; elle sera envoyée automatiquement.", "Su respuesta está guardada. El destinatario aún no está disponible; se enviará automáticamente.", "A sua resposta foi guardada. O destinatário ainda não está acessível; será enviada automaticamente.", "回答は保存されました。送信先にまだ接続できないため、自動的に再送します。", "您的回答已保存。暂时无法联系接收方，系统将自动重新发送。"],
    /// A hosted form's answer could not be delivered.
    Failed => ["Your answer is saved, but it could not be delivered.", "Ihre Antwort ist gespeichert, konnte aber nicht zugestellt werden.", "Votre réponse est enregistrée, mais n'a pas pu être remise.", "Su respuesta está guardada, pero no se pudo entregar.", "A sua resposta foi guardada, mas não pôde ser entregue.", "回答は保存されましたが、送信できませんでした。", "您的回答已保存，但无法送达。"],
    /// A `format=html` form posted to `/v1/submit` and accepted.
    SubmitThanks => ["Thank you. Your answer has been received.", "Vielen Dank. Ihre Antwort ist eingegangen.", "Merci. Votre réponse a bien été reçue.", "Gracias. Hemos recibido su respuesta.", "Obrigado. A sua resposta foi recebida.", "ありがとうございます。回答を受け付けました。", "谢谢。您的回答已收到。"],
    /// A `format=html` form post that cannot be shown again (its form expired, or the post names none).
    SubmitUnavailable => ["This form could not be sent. Reload the page that showed it and try again.", "Dieses Formular konnte nicht gesendet werden. Laden Sie die Seite, die es gezeigt hat, neu und versuchen Sie es erneut.", "Ce formulaire n'a pas pu être envoyé. Rechargez la page qui l'affichait et réessayez.", "No se pudo enviar este formulario. Vuelva a cargar la página que lo mostraba e inténtelo de nuevo.", "Não foi possível enviar este formulário. Recarregue a página que o mostrava e tente novamente.", "このフォームを送信できませんでした。フォームを表示したページを再読み込みして、もう一度お試しください。", "无法提交此表单。请重新加载显示该表单的页面后重试。"],
    /// A hosted form posted again.
    AlreadySubmitted => ["This form has already been submitted.", "Dieses Formular wurde bereits gesendet.", "Ce formulaire a déjà été envoyé.", "Este formulario ya se ha enviado.", "Este formulário já foi enviado.", "このフォームは送信済みです。", "此表单已提交。"],
    /// A hosted form's link has expired.
    Expired => ["This link has expired.", "Dieser Link ist abgelaufen.", "Ce lien a expiré.", "Este enlace ha caducado.", "Este link expirou.", "このリンクは期限切れです。", "此链接已过期。"],
    /// A hosted form's link is not valid.
    NotFound => ["This link is not valid.", "Dieser Link ist ungültig.", "Ce lien n'est pas valide.", "Este enlace no es válido.", "Este link não é válido.", "このリンクは無効です。", "此链接无效。"],
    /// A hosted link's fragment does not hold the values it was made for.
    DataMismatch => ["The values in this link are not the ones it was made for, so the form is not shown.", "Die Werte in diesem Link sind nicht die, für die er erstellt wurde; das Formular wird nicht angezeigt.", "Les valeurs de ce lien ne sont pas celles pour lesquelles il a été créé ; le formulaire n'est pas affiché.", "Los valores de este enlace no son aquellos para los que se creó; no se muestra el formulario.", "Os valores deste link não são aqueles para os quais foi criado; o formulário não é mostrado.", "このリンクの値は作成時のものと異なるため、フォームを表示しません。", "此链接中的值与创建时不符，因此不显示表单。"],
}

/// A language of [`LANGS`], chosen from a locale.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Lang(usize);

impl Lang {
    /// The language for a BCP 47 tag: the tag's language if shipped
    /// (`de-AT` -> `de`, `zh-Hant-TW` -> `zh`), else English.
    pub(crate) fn pick(locale: Option<&str>) -> Self {
        let language = locale
            .and_then(|tag| tag.split(['-', '_']).next())
            .map(str::to_ascii_lowercase);
        Self(
            language
                .and_then(|l| LANGS.iter().position(|x| *x == l))
                .unwrap_or(0),
        )
    }

    /// The first shipped language of an `Accept-Language` header, in the
    /// order the client gave (weights aside).
    pub(crate) fn from_accept_language(header: &str) -> Option<Self> {
        header
            .split(',')
            .map(|part| part.split(';').next().unwrap_or("").trim())
            .find_map(|tag| {
                let lang = Self::pick(Some(tag));
                (lang.0 != 0 || tag.to_ascii_lowercase().starts_with("en")).then_some(lang)
            })
    }

    /// Its column in tables with one column per language of [`LANGS`].
    pub(crate) fn column(self) -> usize {
        self.0
    }

    /// Its tag (`en`, `de`, ...).
    pub(crate) fn tag(self) -> &'static str {
        LANGS[self.0]
    }

    /// A text in this language.
    pub(crate) fn text(self, id: Text) -> &'static str {
        TABLE[id as usize][self.0]
    }

    /// A text with its `{slot}`s filled.
    pub(crate) fn fill(self, id: Text, slots: &[(&str, &str)]) -> String {
        let mut out = self.text(id).to_owned();
        for (name, value) in slots {
            out = out.replace(&format!("{{{name}}}"), value);
        }
        out
    }

    /// A person's message for one violation of the schema, by its keyword.
    pub(crate) fn field_message(self, error: &jsonschema::ValidationError<'_>) -> String {
        use jsonschema::error::ValidationErrorKind as K;
        let limit = |v: &dyn std::fmt::Display| v.to_string();
        match error.kind() {
            K::Required { .. } => self.text(Text::FieldRequired).to_owned(),
            K::Type { .. } => self.text(Text::FieldType).to_owned(),
            K::Format { format } => self.fill(Text::FieldFormat, &[("format", format)]),
            K::Minimum { limit: l } => self.fill(Text::FieldMinimum, &[("limit", &limit(l))]),
            K::Maximum { limit: l } => self.fill(Text::FieldMaximum, &[("limit", &limit(l))]),
            K::ExclusiveMinimum { limit: l } => {
                self.fill(Text::FieldAbove, &[("limit", &limit(l))])
            }
            K::ExclusiveMaximum { limit: l } => {
                self.fill(Text::FieldBelow, &[("limit", &limit(l))])
            }
            K::MaxLength { limit: l } => self.fill(Text::FieldTooLong, &[("limit", &limit(l))]),
            K::MinLength { limit: l } => self.fill(Text::FieldTooShort, &[("limit", &limit(l))]),
            K::Pattern { .. } => self.text(Text::FieldPattern).to_owned(),
            K::Enum { .. } | K::Constant { .. } => self.text(Text::FieldChoice).to_owned(),
            _ => self.text(Text::FieldInvalid).to_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slots(text: &str) -> Vec<&str> {
        let mut out: Vec<&str> = text
            .split('{')
            .skip(1)
            .filter_map(|s| s.split_once('}').map(|(name, _)| name))
            .collect();
        out.sort();
        out
    }

    #[test]
    fn every_text_exists_in_every_language_with_the_same_slots() {
        assert_eq!(Text::ALL.len(), TABLE.len());
        for (&id, row) in Text::ALL.iter().zip(TABLE) {
            let english = slots(row[0]);
            for (lang, text) in LANGS.iter().zip(row) {
                assert!(!text.trim().is_empty(), "{id:?} is empty in {lang}");
                assert_eq!(
                    slots(text),
                    english,
                    "{id:?} in {lang} has other slots than in English"
                );
            }
        }
    }

    #[test]
    fn tags_fall_back_to_their_language_then_english() {
        assert_eq!(Lang::pick(Some("de-AT")).tag(), "de");
        assert_eq!(Lang::pick(Some("zh-Hant-TW")).tag(), "zh");
        assert_eq!(Lang::pick(Some("pt_BR")).tag(), "pt");
        assert_eq!(Lang::pick(Some("nl-NL")).tag(), "en");
        assert_eq!(Lang::pick(None).tag(), "en");
        assert_eq!(Lang::pick(Some("de")).text(Text::Submit), "Absenden");
        assert_eq!(
            Lang::from_accept_language("nl;q=1, fr-CA;q=0.8, en;q=0.5").map(Lang::tag),
            Some("fr")
        );
        assert_eq!(Lang::from_accept_language("nl").map(Lang::tag), None);
        assert_eq!(
            Lang::pick(Some("ja")).fill(Text::FieldMinimum, &[("limit", "3")]),
            "3 以上を入力してください。"
        );
    }
}
