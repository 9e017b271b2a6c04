package exposure

import (
	"bytes"
	"slices"
	"strings"
)

// glossaryZH gives English words for common Chinese words of requests
// about tools: downstream servers describe their tools in English, so a
// Chinese request meets them through these (added to the request's words
// for the external index only; native routing has its own bilingual
// tables). General software vocabulary, not any one server's.
var glossaryZH = map[string]string{
	"列出": "list", "列表": "list", "哪些": "list", "所有": "list all",
	"创建": "create", "新建": "create new", "开一个": "create", "开个": "create", "建一个": "create",
	"删除": "delete", "删掉": "delete", "移除": "remove delete", "去掉": "remove", "忘掉": "delete", "忘记": "delete",
	"搜索": "search", "搜": "search", "查找": "search find", "查询": "query search", "筛": "filter", "找一下": "search find", "搜一下": "search", "查一下": "search get",
	"读取": "read", "读出": "read", "读": "read", "拿出": "get", "看": "view", "查看": "get read view", "显示": "show get", "看看": "get view",
	"写入": "write", "保存": "save write", "写到": "write", "写": "write",
	"更新": "update", "修改": "update edit", "编辑": "edit", "改": "update change", "挪": "move",
	"合并": "merge", "合进": "merge",
	"分支": "branch", "仓库": "repository repo", "代码库": "repository", "项目": "project repository", "专案": "project", "提交": "commit",
	"内容": "content", "允许": "allow allowed", "权限": "permission", "新的": "new", "个新": "new", "标签": "label tag",
	"文件": "file", "目录": "directory", "文件夹": "directory folder",
	"评论": "comment", "留言": "comment", "回复": "reply",
	"频道": "channel", "消息": "message", "发送": "send post", "发一条": "post message", "发到": "post send",
	"用户": "user", "成员": "user member", "个人资料": "profile",
	"页面": "page", "网页": "page", "数据库": "database data source", "数据源": "data source",
	"截图": "screenshot", "截屏": "screenshot", "点击": "click", "点一下": "click",
	"输入": "type", "按下": "press", "按一下": "press", "键": "key", "回车": "enter key", "填写": "fill form", "表单": "form", "打开": "open navigate", "访问": "navigate",
	"关闭": "close", "关掉": "close", "关上": "close", "标签页": "tab", "等待": "wait", "上传": "upload", "下载": "download",
	"状态": "status", "审查": "review", "评审": "review", "问题": "issue", "代码": "code",
	"表情": "reaction emoji", "线程": "thread", "讨论串": "thread", "聊": "message chat history", "发个": "post send", "贴": "post", "关于": "about", "留": "leave", "历史": "history", "聊天记录": "history message",
	"图谱": "graph", "实体": "entity", "关系": "relation", "观察": "observation", "节点": "node",
	"移动": "move", "重命名": "rename move", "尺寸": "size resize", "窗口": "window",
	"控制台": "console", "网络请求": "network request", "环境变量": "environment variable",
	"压缩": "compress gzip", "求和": "sum", "相加": "add sum", "回显": "echo", "图片": "image",
	// verbs and nouns of forms, dialogs and records
	"建": "create", "加": "add", "添加": "add", "增加": "add", "加上": "add", "选": "select", "选择": "select", "下拉": "select option dropdown",
	"弹窗": "dialog", "对话框": "dialog", "确认框": "dialog confirm", "提示框": "dialog alert", "确定": "accept confirm",
	"出现": "appear wait", "附件": "attachment file upload", "传到": "upload", "传上": "upload", "拖": "drag", "拖放": "drag drop", "拖到": "drag drop",
	"字段": "field property", "属性": "property", "导出": "export", "改名": "rename move", "大小": "size", "资料": "profile info",
	"进度": "progress", "全部": "all", "回一句": "reply comment", "回个": "reply comment", "回一下": "reply comment",
	"列一下": "list", "列下": "list", "列个": "list", "找": "find search", "找出": "find search",
	// how big, when: a thing's information; is there: a search
	"多大": "size", "时间": "time", "日期": "date", "有没有": "search find", "是否有": "search find", "追加": "append",
	"返回": "back", "后退": "back", "退回": "back", "上一页": "back previous page", "前进": "forward",
	// branching off, telling a channel, dropping, reacting
	"跑一段": "run", "跑个": "run", "跑一个": "run",
	"重新打开": "reopen", "重开": "reopen",
	"提个": "create submit", "提一个": "create submit", "加起来": "sum add",
	"回了什么": "view replies", "回了啥": "view replies",
	"有谁": "users", "都有谁": "users", "哪些人": "users",
	"拉个": "create", "拉一个": "create", "拉一条": "create", "拉条": "create", "建立": "create",
	"喊一声": "post send message", "说一声": "post send message", "通知一声": "post send message", "通知一下": "send notify",
	"放下": "drop", "放到": "drop", "拖进": "drag drop", "松开": "drop", "点赞": "reaction emoji", "点个赞": "reaction emoji",
	"那页": "page", "这页": "page", "此页": "page", "该页": "page", "页的": "page",
	"子块": "child children block", "区块": "block", "块": "block", "子页面": "child page", "子页": "child page",
	// the generic verbs and nouns of tools that demonstrate or operate things
	"模拟": "simulate", "研究": "research", "深度": "deep", "触发": "trigger", "切换": "toggle", "开关": "toggle",
	"日志": "log logging", "订阅": "subscribe subscription", "资源": "resource", "链接": "link", "注解": "annotation",
	"环境": "environment", "结构化": "structured", "长时间": "long running",
}

// glossaryEN spells out abbreviations that tool descriptions write in
// full; matched as whole words.
var glossaryEN = map[string]string{
	"pr": "pull request", "prs": "pull requests", "mr": "merge request", "mrs": "merge requests",
	"repo": "repository", "repos": "repositories", "dir": "directory", "dirs": "directories",
	"msg": "message", "dm": "direct message", "ci": "status checks", "env": "environment",
	"project": "repository", "projects": "repositories", "member": "user", "members": "users",
	"people": "users", "everyone": "users", "folder": "directory", "folders": "directories",
	"bug": "issue", "bugs": "issues", "ticket": "issue", "tickets": "issues", "readme": "file", "changelog": "file", "license": "file", "makefile": "file", "dockerfile": "file",
	"approve": "review", "lgtm": "review", "xhr": "network requests", "ajax": "network requests",
	// a database is a data source: servers name it either way
	"database": "data source", "databases": "data sources", "db": "database data source",
	// shell commands name the action and its object
	"mkdir": "create directory", "ls": "list", "rm": "delete", "rmdir": "delete directory", "mv": "move", "grep": "search",
	// reviews, staying current, catching up, a person's profile, a digest
	"checks": "status checks", "approval": "review", "approvals": "reviews", "request changes": "review", "changes requested": "review",
	"up to date": "update", "sync": "update", "refresh": "update",
	"catch me up": "recent history messages", "catch up": "recent history messages", "recap": "recent history",
	"timezone": "profile", "time zone": "profile", "job title": "profile", "avatar": "profile", "bio": "profile", "display name": "profile",
	"comment on": "add comment", "js": "javascript",
	"go to": "navigate", "what's in": "content", "what is in": "content",
	"who's in": "users", "who is in": "users", "who are in": "users", "who's on": "users", "who is on": "users",
	"summarize": "read", "summarise": "read", "boil": "read", "tldr": "read", "drop": "remove",
}

// glossaryOrder is the glossary's keys sorted, so that the words are
// added in one order and the scores summed in one order: routing is
// deterministic.
var glossaryOrder, glossaryENOrder = sortedKeysOf(glossaryZH), sortedKeysOf(glossaryEN)

func sortedKeysOf(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// glossEntry is one glossary word as the router matches it.
type glossEntry struct {
	key, en string // the key normalised; its English words
	verb    bool   // en starts with a verb (see onlyModifier)
}

// compileGlossary normalises the glossary's keys with the tables'
// normalizer, once per external set.
func compileGlossary(n *normalizer) (zh []glossEntry, en [][2][]byte) {
	for _, k := range glossaryOrder {
		e := glossaryZH[k]
		_, verb := verbClasses[strings.Fields(e)[0]]
		zh = append(zh, glossEntry{key: n.normal(k), en: e, verb: verb})
	}
	for _, k := range glossaryENOrder {
		en = append(en, [2][]byte{[]byte(k), []byte(glossaryEN[k])})
	}
	return zh, en
}

// measureWords stand between a Chinese verb and its object.
var measureWords = []string{"一个", "一张", "一下", "一条", "一份", "个", "张"}

// withGlossary appends the English words of the glossary's words found in
// normalised text. A measure word between a verb and its object does not
// hide them ("截个图" is "截图"), and a verb followed by 的 is a modifier,
// not the request's verb ("合并的 PR" are merged PRs, not a merge).
func (x *externalSet) withGlossary(text []byte) []byte {
	out := text
	if hasNonASCII(text) {
		str := string(text)
		plain := str
		for _, m := range measureWords {
			plain = strings.ReplaceAll(plain, m, "")
		}
		for _, g := range x.glossZH {
			if !strings.Contains(str, g.key) && (len(plain) == len(str) || !strings.Contains(plain, g.key)) {
				continue
			}
			if g.verb && !slices.Contains(zhQuestionWords, g.key) && onlyModifier(str, g.key) { // 有没有人: a question, not an agent noun
				continue
			}
			if g.verb && askedDone(str, g.key) {
				// 留了哪些评论: which comments were left; 回复了什么: the
				// replies; the verb's thing, not its doing
				out = append(append(out, " view "...), doneNoun(g.en)...)
				continue
			}
			out = append(append(out, ' '), g.en...)
		}
	}
	for _, g := range x.glossEN {
		if bytes.Contains(text, g[0]) && hintedPhrase(text, g[0]) {
			out = append(append(out, ' '), g[1]...)
		}
	}
	return out
}

// hintedPhrase is hinted for one glossary key; a key of several words
// must also start after a space or at the start ("go to", not the "go
// to" of "b.go to acme/tool").
func hintedPhrase(text, key []byte) bool {
	if bytes.IndexByte(key, ' ') < 0 {
		return hinted(text, [][]byte{key})
	}
	ok := false
	eachHint(text, [][]byte{key}, func(at, _ int) bool {
		ok = at == 0 || text[at-1] == ' '
		return !ok
	})
	return ok
}

func hasNonASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return true
		}
	}
	return false
}

// doneNoun is what an asked-about action made, from its English verb:
// reply gives replies. A plural that still reads as the verb (writes)
// gives nothing.
func doneNoun(en string) string {
	w, _, _ := strings.Cut(en, " ")
	n := w + "s"
	if strings.HasSuffix(w, "y") {
		n = w[:len(w)-1] + "ies"
	}
	if verbOf(n) != nil {
		return "" // writes, leaves: still the verb
	}
	return n
}

// zhQuestionWords make a Chinese sentence a question about things.
var zhQuestionWords = []string{"哪些", "什么", "多少", "有没有", "吗", "谁", "何时"}

// askedDone reports whether every occurrence of the verb k in text is
// followed by 了, 过 or 是 in a question ("留了哪些评论", "都回复了什么",
// "最后一次编辑是什么时候"): the request asks what was done, a reading,
// not for it to be done again.
func askedDone(text, k string) bool {
	return slices.ContainsFunc(zhQuestionWords, func(q string) bool { return strings.Contains(text, q) }) &&
		everyFollowedBy(text, k, []string{"了", "过", "是"})
}

// modifierEnds after a verb make it part of a noun: 合并的 PR (merged
// PRs), 修改时间 (the time of a change), 创建者 (who created it).
var modifierEnds = []string{"的", "时间", "日期", "者", "人"}

// onlyModifier reports whether every occurrence of k in text is followed
// by one of modifierEnds.
func onlyModifier(text, k string) bool { return everyFollowedBy(text, k, modifierEnds) }

// everyFollowedBy reports whether k occurs in text and every occurrence
// is followed by one of ends.
func everyFollowedBy(text, k string, ends []string) bool {
	found := false
	for off := 0; ; {
		i := strings.Index(text[off:], k)
		if i < 0 {
			return found
		}
		end := off + i + len(k)
		if !slices.ContainsFunc(ends, func(m string) bool { return strings.HasPrefix(text[end:], m) }) {
			return false
		}
		found = true
		off = end
	}
}
