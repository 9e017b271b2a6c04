package exposure

import (
	"slices"
	"strings"
)

// glossaryZH gives English words for common Chinese words of requests
// about tools: downstream servers describe their tools in English, so a
// Chinese request meets them through these (added to the request's words
// for the external index only; native routing has its own bilingual
// tables). General software vocabulary, not any one server's.
var glossaryZH = map[string]string{
	"列出": "list", "列表": "list", "有哪些": "list", "所有": "list all",
	"创建": "create", "新建": "create new", "开一个": "create", "开个": "create", "建一个": "create",
	"删除": "delete", "删掉": "delete", "移除": "remove delete", "去掉": "remove", "忘掉": "delete", "忘记": "delete",
	"搜索": "search", "查找": "search find", "找一下": "search find", "搜一下": "search", "查一下": "search get",
	"读取": "read", "读出": "read", "查看": "get read view", "显示": "show get", "看看": "get view",
	"写入": "write", "保存": "save write", "写到": "write",
	"更新": "update", "修改": "update edit", "编辑": "edit",
	"合并": "merge", "合进": "merge",
	"分支": "branch", "仓库": "repository repo", "代码库": "repository", "项目": "project", "提交": "commit",
	"文件": "file", "目录": "directory", "文件夹": "directory folder",
	"评论": "comment", "留言": "comment", "回复": "reply",
	"频道": "channel", "消息": "message", "发送": "send post", "发一条": "post message", "发到": "post send",
	"用户": "user", "成员": "user member", "个人资料": "profile",
	"页面": "page", "网页": "page", "数据库": "database", "数据源": "data source",
	"截图": "screenshot", "截屏": "screenshot", "点击": "click", "点一下": "click",
	"输入": "type", "填写": "fill form", "表单": "form", "打开": "open navigate", "访问": "navigate",
	"关闭": "close", "标签页": "tab", "等待": "wait", "上传": "upload", "下载": "download",
	"状态": "status", "审查": "review", "评审": "review", "问题": "issue", "代码": "code",
	"表情": "reaction emoji", "线程": "thread", "历史": "history", "聊天记录": "history message",
	"图谱": "graph", "实体": "entity", "关系": "relation", "观察": "observation", "节点": "node",
	"移动": "move", "重命名": "rename move", "尺寸": "size resize", "窗口": "window",
	"控制台": "console", "网络请求": "network request", "环境变量": "environment variable",
	"压缩": "compress gzip", "求和": "sum", "相加": "add sum", "回显": "echo", "图片": "image",
}

// glossaryEN spells out abbreviations that tool descriptions write in
// full; matched as whole words.
var glossaryEN = map[string]string{
	"pr": "pull request", "prs": "pull requests", "mr": "merge request", "mrs": "merge requests",
	"repo": "repository", "repos": "repositories", "dir": "directory", "dirs": "directories",
	"msg": "message", "dm": "direct message", "ci": "status checks", "env": "environment",
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

// withGlossary appends the English words of the glossary's Chinese words
// found in normalised text.
func withGlossary(n *normalizer, text []byte) []byte {
	out := text
	for _, zh := range glossaryOrder {
		if strings.Contains(string(text), n.normal(zh)) {
			out = append(append(out, ' '), glossaryZH[zh]...)
		}
	}
	for _, ab := range glossaryENOrder {
		if hinted(text, [][]byte{[]byte(ab)}) {
			out = append(append(out, ' '), glossaryEN[ab]...)
		}
	}
	return out
}
